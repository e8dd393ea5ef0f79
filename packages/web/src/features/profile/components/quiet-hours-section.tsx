import type { PublicUser } from '@vitalwatch/shared';
import { type FormEvent, useState } from 'react';
import { toast } from 'react-toastify';
import { Button } from '@/components/button.tsx';
import { Card } from '@/components/card.tsx';
import { TextField } from '@/components/form-field.tsx';
import { errorMessage } from '@/lib/api-error.ts';
import { loggedIn } from '@/lib/store/auth-slice.ts';
import { useAppDispatch } from '@/lib/store/hooks.ts';
import { setQuietHours } from '../api/set-quiet-hours.ts';

const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * Quiet hours: a daily window in which low-priority alerts (battery, device offline) are not
 * pushed or mailed to this user. High priority always comes through; others are not affected.
 */
export function QuietHoursSection({ user }: { user: PublicUser }) {
  const dispatch = useAppDispatch();
  const current = user.quietHours;
  const [start, setStart] = useState(current?.start ?? '22:00');
  const [end, setEnd] = useState(current?.end ?? '07:00');
  const [busy, setBusy] = useState(false);

  const save = async (quietHours: PublicUser['quietHours']) => {
    setBusy(true);
    try {
      const result = await setQuietHours(quietHours);
      dispatch(loggedIn(result.user));
      toast.success(result.message);
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to save quiet hours'));
    } finally {
      setBusy(false);
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void save({ start, end, timeZone: current?.timeZone ?? browserTimeZone() });
  };

  return (
    <Card id="quiet-hours-title" title="Quiet Hours">
      <p className="mb-4 text-sm text-slate-700 dark:text-slate-300">
        {current
          ? `Low-priority alerts are not pushed or e-mailed to you from ${current.start} to ${current.end} (${current.timeZone}). They wait in Alerts History. Falls, SOS and critical values always come through.`
          : 'Off: every alert is pushed to you. Choose hours when low-priority alerts (battery, device offline) should wait in Alerts History instead; falls, SOS and critical values always come through.'}
      </p>
      <form noValidate onSubmit={onSubmit} className="flex flex-wrap items-end gap-3">
        <TextField
          label="From"
          type="time"
          value={start}
          onChange={(e) => setStart(e.target.value)}
          className="w-32"
        />
        <TextField
          label="To"
          type="time"
          value={end}
          onChange={(e) => setEnd(e.target.value)}
          className="w-32"
        />
        <Button type="submit" disabled={busy || start === '' || end === '' || start === end}>
          {current ? 'Update quiet hours' : 'Turn on quiet hours'}
        </Button>
        {current && (
          <Button variant="secondary" disabled={busy} onClick={() => void save(null)}>
            Turn off
          </Button>
        )}
      </form>
    </Card>
  );
}
