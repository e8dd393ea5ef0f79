import { URGENT_SOUND_REPEAT_MS } from '@vitalwatch/shared';
import { useEffect, useSyncExternalStore } from 'react';
import {
  alarmSoundAllowed,
  onAlarmSoundSetting,
  onAlarmSoundState,
  playAlarmBurst,
  readAlarmSoundSetting,
} from './alarm-sound.ts';

/** Profile → "Sound for urgent alerts" on this browser, kept current. */
export function useAlarmSoundSetting(): boolean {
  return useSyncExternalStore(onAlarmSoundSetting, readAlarmSoundSetting, () => false);
}

/**
 * While `sounding` names an unacknowledged high-priority alert (and the setting is on), plays the
 * high-priority burst at once and again every `URGENT_SOUND_REPEAT_MS`, as IEC 60601-1-8 has a
 * high-priority alarm signal repeat until acknowledged; a newer alert starts it afresh. Answers
 * whether the browser still blocks the sound (no click on the page yet): the caller offers one.
 */
export function useAlarmSound(sounding: string | null): { blocked: boolean } {
  const enabled = useAlarmSoundSetting();
  const allowed = useSyncExternalStore(onAlarmSoundState, alarmSoundAllowed, () => false);
  const on = enabled && sounding !== null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a newer alert (`sounding`) sounds at once.
  useEffect(() => {
    if (!on) return;
    playAlarmBurst();
    const timer = setInterval(playAlarmBurst, URGENT_SOUND_REPEAT_MS);
    return () => clearInterval(timer);
  }, [on, sounding]);
  return { blocked: on && !allowed };
}
