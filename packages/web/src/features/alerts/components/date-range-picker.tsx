import { useCallback, useId, useRef, useState } from 'react';
import { Button } from '@/components/button.tsx';
import { CalendarIcon, ChevronDownIcon } from '@/components/icons.tsx';
import { useDismiss } from '@/components/use-dismiss.ts';
import { canApply, type DateRange, EMPTY_RANGE, formatDate, pickDate } from '../utils/date-range.ts';
import { Calendar } from './calendar.tsx';

interface DateRangePickerProps {
  /** The range the list is filtered by. */
  applied: DateRange;
  onApply: (range: DateRange) => void;
}

function DateBox({ label, date }: { label: string; date: Date | null }) {
  return (
    <div className="flex-1 rounded-lg border border-slate-200 px-3 py-1.5 dark:border-slate-700">
      <p className="text-xs text-slate-500 dark:text-slate-400">{label}</p>
      <p
        data-testid={`range-${label.toLowerCase()}`}
        className={`text-sm font-medium ${date ? 'text-slate-900 dark:text-white' : 'text-slate-500 dark:text-slate-400'}`}
      >
        {date ? formatDate(date) : 'dd/mm/yyyy'}
      </p>
    </div>
  );
}

/** The alerts date filter: a calendar with From/To, 'Clear', 'Apply Dates' (only with both) and 'Close'. */
export function DateRangePicker({ applied, onApply }: DateRangePickerProps) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<DateRange>(applied);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();
  const close = useCallback(() => setOpen(false), []);
  useDismiss(root, open, close);

  const toggle = () => {
    if (!open) setDraft(applied);
    setOpen(!open);
  };
  const closeAndFocus = () => {
    setOpen(false);
    button.current?.focus();
  };

  const label =
    applied.from && applied.to ? `${formatDate(applied.from)} – ${formatDate(applied.to)}` : 'Select dates';

  return (
    <div ref={root} className="relative">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={id}
        aria-label={`Date range: ${label}`}
        onClick={toggle}
        className="flex w-full items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 shadow-sm hover:bg-slate-50 sm:w-auto dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
      >
        <CalendarIcon className="size-4 text-teal-700 dark:text-teal-400" />
        <span className="flex-1 text-left">{label}</span>
        <ChevronDownIcon className="size-4" />
      </button>
      {open && (
        <div
          id={id}
          role="dialog"
          aria-label="Choose a date range"
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            event.stopPropagation();
            closeAndFocus();
          }}
          className="absolute left-0 z-30 mt-2 w-80 max-w-[calc(100vw-2rem)] rounded-2xl border border-slate-200 bg-white p-4 shadow-xl dark:border-slate-700 dark:bg-slate-900"
        >
          <div className="mb-3 flex gap-2">
            <DateBox label="From" date={draft.from} />
            <DateBox label="To" date={draft.to} />
          </div>
          <Calendar range={draft} onPick={(day) => setDraft((r) => pickDate(r, day))} />
          <div className="mt-3 flex flex-wrap justify-end gap-2 border-t border-slate-100 pt-3 dark:border-slate-800">
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                setDraft(EMPTY_RANGE);
                onApply(EMPTY_RANGE);
              }}
            >
              Clear
            </Button>
            <Button variant="secondary" size="sm" onClick={closeAndFocus}>
              Close
            </Button>
            <Button
              size="sm"
              disabled={!canApply(draft)}
              onClick={() => {
                onApply(draft);
                closeAndFocus();
              }}
            >
              Apply Dates
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
