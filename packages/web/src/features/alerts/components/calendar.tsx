import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { ChevronLeftIcon, ChevronRightIcon } from '@/components/icons.tsx';
import {
  calendarCells,
  type DateRange,
  formatDate,
  inRange,
  sameDay,
  shiftMonth,
} from '../utils/date-range.ts';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const KEY_DAYS: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };

interface CalendarProps {
  range: DateRange;
  onPick: (day: Date) => void;
}

const addDays = (d: Date, n: number) => new Date(d.getFullYear(), d.getMonth(), d.getDate() + n);

/**
 * A month of 42 days (6 weeks from Sunday) with the chosen range highlighted. One day is in the
 * Tab order; arrows move by day and week, Page Up/Down by month, Enter or Space picks.
 */
export function Calendar({ range, onPick }: CalendarProps) {
  const titleId = useId();
  const [focused, setFocused] = useState(() => range.from ?? new Date());
  const [view, setView] = useState(() => ({ year: focused.getFullYear(), month: focused.getMonth() }));
  const grid = useRef<HTMLTableElement>(null);
  const moved = useRef(false);
  const today = new Date();
  const cells = calendarCells(view.year, view.month);
  const title = new Date(view.year, view.month, 1).toLocaleDateString('en-US', {
    month: 'long',
    year: 'numeric',
  });
  const focusInView = cells.some((c) => sameDay(c, focused)) ? focused : new Date(view.year, view.month, 1);

  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    grid.current?.querySelector<HTMLButtonElement>('button[tabindex="0"]')?.focus();
  });

  const moveTo = (day: Date) => {
    moved.current = true;
    setFocused(day);
    setView({ year: day.getFullYear(), month: day.getMonth() });
  };

  const goMonth = (delta: number) => {
    const next = shiftMonth(view.year, view.month, delta);
    setView(next);
    setFocused(new Date(next.year, next.month, Math.min(focusInView.getDate(), 28)));
  };

  const onKeyDown = (event: KeyboardEvent, day: Date) => {
    const step = KEY_DAYS[event.key];
    if (step !== undefined) {
      event.preventDefault();
      moveTo(addDays(day, step));
    } else if (event.key === 'PageUp' || event.key === 'PageDown') {
      event.preventDefault();
      moveTo(new Date(day.getFullYear(), day.getMonth() + (event.key === 'PageUp' ? -1 : 1), day.getDate()));
    }
  };

  const weeks = Array.from({ length: 6 }, (_, w) => cells.slice(w * 7, w * 7 + 7));
  const navButton =
    'rounded-lg p-1.5 text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800';

  return (
    <div>
      <div className="mb-2 flex items-center justify-between">
        <button type="button" aria-label="Previous month" className={navButton} onClick={() => goMonth(-1)}>
          <ChevronLeftIcon className="size-4" />
        </button>
        <p id={titleId} aria-live="polite" className="text-sm font-semibold text-slate-900 dark:text-white">
          {title}
        </p>
        <button type="button" aria-label="Next month" className={navButton} onClick={() => goMonth(1)}>
          <ChevronRightIcon className="size-4" />
        </button>
      </div>
      <table
        ref={grid}
        aria-labelledby={titleId}
        className="w-full table-fixed border-collapse text-center text-sm"
      >
        <thead>
          <tr>
            {WEEKDAYS.map((d) => (
              <th
                key={d}
                scope="col"
                abbr={d}
                className="pb-1 text-xs font-medium text-slate-500 dark:text-slate-400"
              >
                {d.slice(0, 2)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week[0]!.toISOString()}>
              {week.map((day) => (
                <td key={day.toISOString()} className="p-0.5">
                  <DayButton
                    day={day}
                    range={range}
                    outside={day.getMonth() !== view.month}
                    today={sameDay(day, today)}
                    tabbable={sameDay(day, focusInView)}
                    onPick={onPick}
                    onKeyDown={onKeyDown}
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

interface DayButtonProps {
  day: Date;
  range: DateRange;
  outside: boolean;
  today: boolean;
  tabbable: boolean;
  onPick: (day: Date) => void;
  onKeyDown: (event: KeyboardEvent, day: Date) => void;
}

function DayButton({ day, range, outside, today, tabbable, onPick, onKeyDown }: DayButtonProps) {
  const end = sameDay(day, range.from) || sameDay(day, range.to);
  const within = inRange(day, range);
  const tone = end
    ? 'bg-teal-700 font-semibold text-white dark:bg-teal-500 dark:text-slate-950'
    : within
      ? 'bg-teal-100 text-teal-900 dark:bg-teal-900/60 dark:text-teal-100'
      : outside
        ? 'text-slate-500 hover:bg-slate-100 dark:text-slate-400 dark:hover:bg-slate-800'
        : 'text-slate-800 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800';
  return (
    <button
      type="button"
      tabIndex={tabbable ? 0 : -1}
      aria-pressed={end}
      aria-current={today ? 'date' : undefined}
      data-testid="calendar-day"
      onClick={() => onPick(day)}
      onKeyDown={(event) => onKeyDown(event, day)}
      className={`h-9 w-full rounded-lg ${tone} ${today && !end ? 'ring-1 ring-teal-600 dark:ring-teal-400' : ''}`}
    >
      {/* Named "1, Sunday 01/11/2026": the visible number first, so speech input can say it. */}
      {day.getDate()}
      <span className="sr-only">{`, ${day.toLocaleDateString('en-US', { weekday: 'long' })} ${formatDate(day)}`}</span>
    </button>
  );
}
