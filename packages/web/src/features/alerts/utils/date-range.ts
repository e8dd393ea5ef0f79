/** The Alerts History date-range picker's rules (spec 5), free of React so they can be tested alone. */

export interface DateRange {
  from: Date | null;
  to: Date | null;
}

export const EMPTY_RANGE: DateRange = { from: null, to: null };

/** A calendar page always has 6 weeks of 7 days. */
export const CALENDAR_CELLS = 42;

const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate());

export const sameDay = (a: Date | null, b: Date | null): boolean =>
  a !== null && b !== null && startOfDay(a).getTime() === startOfDay(b).getTime();

/** The 42 days shown for `month` (0–11) of `year`: from the Sunday on or before the 1st. */
export function calendarCells(year: number, month: number): Date[] {
  const first = new Date(year, month, 1);
  const start = new Date(year, month, 1 - first.getDay());
  return Array.from(
    { length: CALENDAR_CELLS },
    (_, i) => new Date(start.getFullYear(), start.getMonth(), start.getDate() + i),
  );
}

/**
 * The range after clicking `day`: the first click sets From; the second sets To, or, if it is
 * before From, swaps the two; a click when both are set starts a new range.
 */
export function pickDate(range: DateRange, day: Date): DateRange {
  const picked = startOfDay(day);
  if (range.from === null || range.to !== null) return { from: picked, to: null };
  if (picked.getTime() < range.from.getTime()) return { from: picked, to: range.from };
  return { from: range.from, to: picked };
}

/** 'Apply Dates' only with both ends chosen. */
export const canApply = (range: DateRange): boolean => range.from !== null && range.to !== null;

/** Whether `day` falls within the range, ends included. */
export function inRange(day: Date, range: DateRange): boolean {
  if (!range.from || !range.to) return false;
  const t = startOfDay(day).getTime();
  return t >= range.from.getTime() && t <= range.to.getTime();
}

const two = (n: number) => String(n).padStart(2, '0');

/** Dates are shown dd/mm/yyyy. */
export const formatDate = (d: Date): string =>
  `${two(d.getDate())}/${two(d.getMonth() + 1)}/${d.getFullYear()}`;

/** The server query for a range of whole local days: from the start of From to the end of To. */
export function rangeQuery(range: DateRange): { from?: string; to?: string } {
  if (!range.from || !range.to) return {};
  const end = new Date(range.to.getFullYear(), range.to.getMonth(), range.to.getDate() + 1);
  return { from: range.from.toISOString(), to: new Date(end.getTime() - 1).toISOString() };
}

/** The month shown after moving `delta` months from (year, month). */
export function shiftMonth(year: number, month: number, delta: number): { year: number; month: number } {
  const d = new Date(year, month + delta, 1);
  return { year: d.getFullYear(), month: d.getMonth() };
}
