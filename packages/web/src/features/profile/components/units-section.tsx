import {
  type PublicUser,
  TEMPERATURE_SYMBOLS,
  TEMPERATURE_UNITS,
  type TemperatureUnit,
} from '@vitalwatch/shared';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { Card } from '@/components/card.tsx';
import { errorMessage } from '@/lib/api-error.ts';
import { loggedIn } from '@/lib/store/auth-slice.ts';
import { useAppDispatch } from '@/lib/store/hooks.ts';
import { setTemperatureUnit } from '../api/set-temperature-unit.ts';

const NAMES: Record<TemperatureUnit, string> = { F: 'Fahrenheit', C: 'Celsius' };

/** Temperature in °F (the default) or °C, for this user's dashboard; devices keep sending °F. */
export function UnitsSection({ user }: { user: PublicUser }) {
  const dispatch = useAppDispatch();
  // The choice shows at once; it goes back if the server refuses it.
  const [pending, setPending] = useState<TemperatureUnit | null>(null);
  const shown = pending ?? user.temperatureUnit;

  const choose = async (unit: TemperatureUnit) => {
    if (unit === shown) return;
    setPending(unit);
    try {
      const result = await setTemperatureUnit(unit);
      dispatch(loggedIn(result.user));
      toast.success(result.message);
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to update the temperature unit'));
    } finally {
      setPending(null);
    }
  };

  return (
    <Card id="units-title" title="Units" description="How temperatures are shown to you.">
      <fieldset disabled={pending !== null} className="flex flex-wrap gap-3">
        <legend className="sr-only">Temperature unit</legend>
        {TEMPERATURE_UNITS.map((unit) => (
          <label
            key={unit}
            className="flex cursor-pointer items-center gap-2 rounded-lg border border-slate-300 px-3 py-2 text-sm text-slate-800 has-checked:border-teal-700 has-checked:bg-teal-50 dark:border-slate-700 dark:text-slate-100 dark:has-checked:border-teal-400 dark:has-checked:bg-teal-950/40"
          >
            <input
              type="radio"
              name="temperature-unit"
              value={unit}
              checked={shown === unit}
              onChange={() => void choose(unit)}
              className="accent-teal-700 dark:accent-teal-400"
            />
            {TEMPERATURE_SYMBOLS[unit]} ({NAMES[unit]})
          </label>
        ))}
      </fieldset>
    </Card>
  );
}
