const DATE_TIME: Intl.DateTimeFormatOptions = {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
};

/**
 * The admin tables' dates (spec: en-US, short month, numeric day and year, 2-digit hour and
 * minute), e.g. "Jan 5, 2026, 09:30 AM" in the browser's time zone unless one is given.
 */
export function formatDateTime(iso: string, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-US', { ...DATE_TIME, timeZone }).format(new Date(iso));
}
