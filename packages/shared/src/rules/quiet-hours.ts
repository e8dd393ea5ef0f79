/**
 * Quiet hours: a daily window in the user's own time zone during which low-priority alerts are not
 * pushed or mailed to them (they wait in Alerts History). High priority always comes through, and
 * snoozes never apply to FALL or SOS.
 */
export interface QuietHours {
  /** "22:00": start of the window, local time. */
  start: string;
  /** "07:00": end of the window (before start: the window spans midnight). */
  end: string;
  /** IANA time zone, e.g. "Europe/London". */
  timeZone: string;
}

/** Snooze lengths a person may choose for one device's alert type. */
export const SNOOZE_MINUTES = [15, 30, 60, 120] as const;

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Minutes since local midnight at `now` in the time zone. */
function localMinutes(now: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const value = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return value('hour') * 60 + value('minute');
}

/** Whether `now` falls in the window (start inclusive, end exclusive; equal ends: no window). */
export function isInQuietHours(quiet: QuietHours | null | undefined, now: Date): boolean {
  if (!quiet) return false;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === end) return false;
  const t = localMinutes(now, quiet.timeZone);
  return start < end ? t >= start && t < end : t >= start || t < end;
}

/** A time zone this runtime knows. */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone });
    return true;
  } catch {
    return false;
  }
}
