import { DEFAULT_ALARM_SETTINGS, priorityOf, VITAL_ALARM_TYPES, VITAL_ALARMS } from '@vitalwatch/shared';

/** "30 seconds", "5 minutes". */
function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} seconds`;
  const minutes = seconds / 60;
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

const PRIORITY_TEXT = { high: 'High priority', medium: 'Medium priority', low: 'Low priority' } as const;

interface Rule {
  title: string;
  priority: string;
  when: string;
}

/** The default alarm conditions, read from the same shared rules the server raises alerts by. */
function vitalRules(): Rule[] {
  return VITAL_ALARM_TYPES.map((type) => {
    const { title, direction, unit, priority } = VITAL_ALARMS[type];
    const { limit, critical, delaySeconds } = DEFAULT_ALARM_SETTINGS.conditions[type];
    const side = direction === 'low' ? 'below' : 'above';
    const criticalSide = direction === 'low' ? 'or lower' : 'or higher';
    const raised =
      delaySeconds === 0
        ? `As soon as it is ${side} ${limit} ${unit}`
        : `When it stays ${side} ${limit} ${unit} for ${duration(delaySeconds)}`;
    const when =
      critical === null
        ? `${raised}.`
        : `${raised}. At ${critical} ${unit} ${criticalSide} it is raised at once, with high priority.`;
    return { title, priority: PRIORITY_TEXT[priority], when };
  });
}

const EVENT_RULES: Rule[] = [
  {
    title: 'Fall (FALL)',
    priority: PRIORITY_TEXT[priorityOf('FALL')],
    when: 'The device detected a fall. Raised the moment it arrives, never delayed and never snoozed.',
  },
  {
    title: 'SOS',
    priority: PRIORITY_TEXT[priorityOf('SOS')],
    when: 'The wearer pressed the SOS button. Raised the moment it arrives, never delayed and never snoozed.',
  },
  {
    title: 'Device offline',
    priority: PRIORITY_TEXT[priorityOf('DEVICE_OFFLINE')],
    when: 'A device that was sending readings has sent nothing for 15 minutes. It ends by itself when a reading comes in again.',
  },
  {
    title: 'Other device alerts',
    // Any other type a device names itself.
    priority: PRIORITY_TEXT[priorityOf('DEVICE_EVENT')],
    when: 'Some devices report other events of their own; they are shown with the title and message the device gave.',
  },
];

/** What each kind of alert means and when it is raised (user guide). */
export function AlertRulesList() {
  return (
    <ul className="!list-none !space-y-3 !pl-0">
      {[...EVENT_RULES, ...vitalRules()].map((rule) => (
        <li
          key={rule.title}
          className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
        >
          <p className="flex flex-wrap items-baseline justify-between gap-x-3">
            <strong>{rule.title}</strong>
            <span className="text-sm text-slate-600 dark:text-slate-400">{rule.priority}</span>
          </p>
          <p className="mt-1 text-sm">{rule.when}</p>
        </li>
      ))}
    </ul>
  );
}
