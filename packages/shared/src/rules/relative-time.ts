const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`;

/**
 * Spec wording for the 'Updated' line: 'Never', 'Just now' (under a minute or in the future),
 * then minutes, hours, days (up to 6), weeks (up to 4), months, years.
 */
export function relativeTime(date: Date | string | null | undefined, now: Date = new Date()): string {
  if (date === null || date === undefined) return 'Never';
  const time = typeof date === 'string' ? Date.parse(date) : date.getTime();
  if (Number.isNaN(time)) return 'Never';
  const diff = now.getTime() - time;
  if (diff < MINUTE) return 'Just now';
  if (diff < HOUR) return plural(Math.floor(diff / MINUTE), 'minute');
  if (diff < DAY) return plural(Math.floor(diff / HOUR), 'hour');
  if (diff < WEEK) return plural(Math.floor(diff / DAY), 'day');
  if (diff < MONTH) return plural(Math.min(4, Math.floor(diff / WEEK)), 'week');
  if (diff < YEAR) return plural(Math.max(1, Math.floor(diff / MONTH)), 'month');
  return plural(Math.floor(diff / YEAR), 'year');
}
