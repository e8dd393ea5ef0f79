import { useId } from 'react';
import { Card } from '@/components/card.tsx';
import { Switch } from '@/components/switch.tsx';
import { storeAlarmSoundSetting, unlockAlarmSound } from '@/lib/alarm-sound.ts';
import { useAlarmSoundSetting } from '@/lib/use-alarm-sound.ts';

/**
 * "Sound for urgent alerts" on this browser (stored here, off by default): while a fall, SOS or
 * critical value is unacknowledged, a high-priority alarm sound repeats every 10 s. Turning it
 * on is the click browsers require before a page may play sound.
 */
export function AlertSoundSection() {
  const on = useAlarmSoundSetting();
  const labelId = useId();
  const toggle = (next: boolean) => {
    if (next) unlockAlarmSound();
    storeAlarmSoundSetting(next);
  };
  return (
    <Card id="alert-sound-title" title="Alert Sound">
      <div className="flex items-center justify-between gap-4">
        <div className="text-sm">
          <p id={labelId} className="font-medium text-slate-900 dark:text-white">
            Sound for urgent alerts
          </p>
          <p className="mt-1 text-slate-600 dark:text-slate-400">
            While a fall, SOS or critical value is unacknowledged, an alarm sounds every 10 seconds until
            someone acknowledges it. Set on this browser only; off unless you turn it on.
          </p>
        </div>
        <Switch checked={on} labelledBy={labelId} onChange={toggle} onText="On" offText="Off" />
      </div>
    </Card>
  );
}
