/**
 * The one way dates are written, everywhere but inside the date picker (dd/mm/yyyy, spec 8): the
 * spec's admin format, en-US with a short month, numeric day and year, 2-digit hour and minute, in
 * the browser's time zone unless one is given. "Jan 5, 2026, 09:30 AM"; a day alone "Jan 5, 2026";
 * a time alone "09:30 AM". A month name cannot be misread as dd/mm or mm/dd.
 */
const DAY: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric', year: 'numeric' };
const CLOCK: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' };

type Instant = string | number | Date;
const format = (when: Instant, options: Intl.DateTimeFormatOptions, timeZone?: string) =>
  new Intl.DateTimeFormat('en-US', { ...options, timeZone }).format(new Date(when));

export const formatDateTime = (when: Instant, timeZone?: string): string =>
  format(when, { ...DAY, ...CLOCK }, timeZone);

/** With seconds, where they tell steps apart (an alert's timeline): "Jan 5, 2026, 09:30:12 AM". */
export const formatDateTimeSeconds = (when: Instant, timeZone?: string): string =>
  format(when, { ...DAY, ...CLOCK, second: '2-digit' }, timeZone);

export const formatDay = (when: Instant, timeZone?: string): string => format(when, DAY, timeZone);

export const formatClock = (when: Instant, timeZone?: string): string => format(when, CLOCK, timeZone);
