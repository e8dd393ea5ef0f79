import {
  ALARM_BOUNDS,
  type AlarmSettings,
  VITAL_ALARMS,
  type VitalAlarmType,
  type VitalCondition,
} from '@vitalwatch/shared';

export type Errors = Record<string, string>;
export type ConditionField = keyof VitalCondition;

/** Each setting of a condition, with what it does in words (shown once, above the conditions). */
export const CONDITION_FIELDS: {
  key: ConditionField;
  label: string;
  unit: (t: VitalAlarmType) => string;
  meaning: string;
}[] = [
  {
    key: 'limit',
    label: 'Alarm limit',
    unit: (t) => VITAL_ALARMS[t].unit,
    meaning: 'a reading beyond it starts the alarm.',
  },
  {
    key: 'critical',
    label: 'Critical at',
    unit: (t) => VITAL_ALARMS[t].unit,
    meaning: 'a reading at or beyond it raises the alert at once, without the delay.',
  },
  {
    key: 'delaySeconds',
    label: 'Delay',
    unit: () => 's',
    meaning:
      'how long readings must stay beyond the limit before the alert is raised, so a brief blip does not.',
  },
  {
    key: 'clearMargin',
    label: 'Clear margin',
    unit: (t) => VITAL_ALARMS[t].unit,
    meaning: 'how far back inside the limit a reading must come for the alarm to clear.',
  },
  {
    key: 'clearSeconds',
    label: 'Clear after',
    unit: () => 's',
    meaning: 'how long readings must stay back inside before the alarm clears.',
  },
];

/** The condition in one sentence: "Alert when below 95 % for 30 s; at once at 91 % or below." */
export function conditionSummary(type: VitalAlarmType, c: VitalCondition): string {
  const { direction, unit } = VITAL_ALARMS[type];
  const side = direction === 'low' ? 'below' : 'above';
  const delay = c.delaySeconds > 0 ? ` for ${c.delaySeconds} s` : '';
  const atOnce =
    c.critical === null
      ? ''
      : `; at once at ${c.critical} ${unit} or ${direction === 'low' ? 'below' : 'above'}`;
  return `Alert when readings stay ${side} ${c.limit} ${unit}${delay}${atOnce}.`;
}

interface NumberFieldProps {
  path: string;
  label: string;
  unit: string;
  value: number | null;
  bounds: { min: number; max: number } | null;
  error: string | undefined;
  /** Null: shown, not editable. */
  onChange: ((value: number) => void) | null;
}

/** One setting: its value as text (read only) or an input within its safe bounds. */
export function NumberField({ path, label, unit, value, bounds, error, onChange }: NumberFieldProps) {
  if (value === null || !bounds) {
    return <span className="text-sm text-slate-500 dark:text-slate-400">Not used</span>;
  }
  if (!onChange) {
    return (
      <span className="text-sm font-semibold text-slate-900 dark:text-white">
        {value} {unit}
      </span>
    );
  }
  return (
    <span className="block">
      <input
        type="number"
        aria-label={label}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${path}-error` : undefined}
        min={bounds.min}
        max={bounds.max}
        step="any"
        value={Number.isNaN(value) ? '' : value}
        onChange={(e) => onChange(e.target.value === '' ? Number.NaN : Number(e.target.value))}
        className={`w-20 rounded-md border bg-white px-2 py-1 text-sm text-slate-900 dark:bg-slate-900 dark:text-slate-100 ${
          error ? 'border-red-500 dark:border-red-400' : 'border-slate-300 dark:border-slate-700'
        }`}
      />
      <span aria-hidden="true" className="ml-1 text-xs text-slate-600 dark:text-slate-400">
        {unit}
      </span>
      {error && (
        <span id={`${path}-error`} role="alert" className="mt-1 block text-xs text-red-700 dark:text-red-300">
          {error}
        </span>
      )}
    </span>
  );
}

interface ConditionCardProps {
  type: VitalAlarmType;
  settings: AlarmSettings;
  errors: Errors;
  /** Null: read only. */
  onChange: ((key: ConditionField, value: number) => void) | null;
}

/** One vital's alarm: its title, what it does in a sentence, and its five settings in rows (no sideways scrolling). */
export function ConditionCard({ type, settings, errors, onChange }: ConditionCardProps) {
  const condition = settings.conditions[type];
  const title = VITAL_ALARMS[type].title;
  return (
    <section aria-label={title} className="rounded-xl border border-slate-200 p-3 dark:border-slate-700">
      <h3 className="text-sm font-semibold text-slate-900 dark:text-white">{title}</h3>
      <p className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">{conditionSummary(type, condition)}</p>
      <dl className="mt-2 grid grid-cols-[1fr_auto] items-center gap-x-3 gap-y-1.5">
        {CONDITION_FIELDS.map((f) => {
          const path = `conditions.${type}.${f.key}`;
          return (
            <div key={f.key} className="contents">
              <dt className="text-sm text-slate-700 dark:text-slate-300">{f.label}</dt>
              <dd>
                <NumberField
                  path={path}
                  label={`${title}: ${f.label} (${f.unit(type)})`}
                  unit={f.unit(type)}
                  value={condition[f.key]}
                  bounds={ALARM_BOUNDS[type][f.key]}
                  error={errors[path]}
                  onChange={onChange && ((v) => onChange(f.key, v))}
                />
              </dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}
