import type { TemperatureUnit } from '@vitalwatch/shared';
import { selectCurrentUser } from '@/lib/store/auth-slice.ts';
import { useAppSelector } from '@/lib/store/hooks.ts';

/** The signed-in user's temperature unit (°F until their profile says otherwise). */
export const useTemperatureUnit = (): TemperatureUnit =>
  useAppSelector(selectCurrentUser)?.temperatureUnit ?? 'F';
