import { HISTORY_MAX_RANGE_DAYS } from '@vitalwatch/shared';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/button.tsx';
import type { TimeWindow } from '../hooks/use-health-history.ts';

const two = (n: number) => String(n).padStart(2, '0');
/** A `datetime-local` value (local time, to the minute). */
const local = (ms: number) => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
};

interface CustomRangeProps {
  value: TimeWindow | null;
  onApply: (window: TimeWindow) => void;
}

/** A from–to window of the user's choosing (up to the server's longest range). */
export function CustomRange({ value, onApply }: CustomRangeProps) {
  const id = useId();
  const [from, setFrom] = useState(() => local(value?.from ?? Date.now() - 24 * 3600_000));
  const [to, setTo] = useState(() => local(value?.to ?? Date.now()));
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const start = Date.parse(from);
    const end = Date.parse(to);
    if (Number.isNaN(start) || Number.isNaN(end)) return setError('Choose both a start and an end');
    if (end <= start) return setError('The end must be after the start');
    if (end - start > HISTORY_MAX_RANGE_DAYS * 86_400_000) {
      return setError(`A range covers at most ${HISTORY_MAX_RANGE_DAYS} days`);
    }
    setError(null);
    onApply({ from: start, to: end });
  };

  const field =
    'rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100';
  return (
    <form noValidate onSubmit={submit} className="mb-3 flex flex-wrap items-end gap-2">
      <label htmlFor={`${id}-from`} className="text-xs font-medium text-slate-700 dark:text-slate-200">
        From
        <input
          id={`${id}-from`}
          type="datetime-local"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          className={`mt-1 block ${field}`}
        />
      </label>
      <label htmlFor={`${id}-to`} className="text-xs font-medium text-slate-700 dark:text-slate-200">
        To
        <input
          id={`${id}-to`}
          type="datetime-local"
          value={to}
          onChange={(e) => setTo(e.target.value)}
          className={`mt-1 block ${field}`}
        />
      </label>
      <Button type="submit" size="sm" variant="secondary">
        Show
      </Button>
      {error && (
        <p role="alert" className="basis-full text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </form>
  );
}
