import { useId } from 'react';
import { HEALTH_RANGES, type HealthRangeId } from '../utils/records.ts';

interface RangeChoiceProps {
  /** Null: none chosen yet (the opening range is being worked out). */
  value: HealthRangeId | null;
  onChange: (range: HealthRangeId) => void;
}

/** Last hour / 24 hours / 7 days / 30 days / Custom, as a radio group that looks like a segmented control. */
export function RangeChoice({ value, onChange }: RangeChoiceProps) {
  const name = useId();
  return (
    <fieldset className="flex flex-wrap rounded-lg border border-slate-300 p-0.5 text-xs font-medium dark:border-slate-700">
      <legend className="sr-only">Chart period</legend>
      {HEALTH_RANGES.map((r) => (
        <label
          key={r.id}
          className={`cursor-pointer whitespace-nowrap rounded-md px-2.5 py-1 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-teal-600 ${
            value === r.id
              ? 'bg-teal-700 text-white dark:bg-teal-500 dark:text-slate-950'
              : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'
          }`}
        >
          <input
            type="radio"
            name={name}
            value={r.id}
            checked={value === r.id}
            onChange={() => onChange(r.id)}
            className="sr-only"
          />
          {r.label}
        </label>
      ))}
    </fieldset>
  );
}
