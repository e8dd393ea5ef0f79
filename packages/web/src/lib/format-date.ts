/**
 * The one way dates are written, everywhere but inside the date picker (dd/mm/yyyy, spec 8): the
 * spec's admin format, en-US with a short month, numeric day and year, 2-digit hour and minute, in
 * the browser's time zone unless one is given. "Jan 5, 2026, 09:30 AM"; a day alone "Jan 5, 2026";
 * a time alone "09:30 AM". A month name cannot be misread as dd/mm or mm/dd.
 */
const DAY: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric', year: 'numeric' };
const CLOCK: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' };

type Instant = string | number | Date;
/**
 * Formatters by options and time zone, made once: building an Intl.DateTimeFormat costs far more
 * than formatting with it, and a dashboard formats dozens of times on every render.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
const format = (when: Instant, options: Intl.DateTimeFormatOptions, timeZone?: string) => {
  const key = `${JSON.stringify(options)}|${timeZone ?? ''}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { ...options, timeZone });
    formatters.set(key, formatter);
  }
  return formatter.format(new Date(when));
};

export const formatDateTime = (when: Instant, timeZone?: string): string =>
  format(when, { ...DAY, ...CLOCK }, timeZone);

/** With seconds, where they tell steps apart (an alert's timeline): "Jan 5, 2026, 09:30:12 AM". */
export const formatDateTimeSeconds = (when: Instant, timeZone?: string): string =>
  format(when, { ...DAY, ...CLOCK, second: '2-digit' }, timeZone);

export const formatDay = (when: Instant, timeZone?: string): string => format(when, DAY, timeZone);

export const formatClock = (when: Instant, timeZone?: string): string => format(when, CLOCK, timeZone);

/** A clock time with seconds, "09:30:12 AM": when a reading's age in seconds matters. */
export const formatClockSeconds = (when: Instant, timeZone?: string): string =>
  format(when, { ...CLOCK, second: '2-digit' }, timeZone);

/**
 * How old something is, to the second while that matters: "45 s", "2 min 5 s", "3 h 12 min",
 * "2 d 4 h". Where "Just now" would hide that data stopped coming. A future time is "0 s".
 */
export function formatAge(when: Instant, now: Date): string {
  const seconds = Math.max(0, Math.floor((now.getTime() - new Date(when).getTime()) / 1000));
  const [d, h, m, s] = [
    Math.floor(seconds / 86_400),
    Math.floor(seconds / 3600) % 24,
    Math.floor(seconds / 60) % 60,
    seconds % 60,
  ];
  if (d > 0) return h > 0 ? `${d} d ${h} h` : `${d} d`;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  if (m > 0) return s > 0 ? `${m} min ${s} s` : `${m} min`;
  return `${s} s`;
}
