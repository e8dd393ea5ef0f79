import type { UserGrowthEntry } from '@vitalwatch/shared';

export interface GrowthSummary {
  total: number;
  /** New users per day over the window, one decimal. */
  averageDaily: number;
}

/** Total new users over the window and the daily average (0 for an empty window). */
export function growthSummary(entries: readonly UserGrowthEntry[]): GrowthSummary {
  const total = entries.reduce((sum, e) => sum + e.users, 0);
  const averageDaily = entries.length === 0 ? 0 : Math.round((total / entries.length) * 10) / 10;
  return { total, averageDaily };
}

/** A `YYYY-MM-DD` day as the chart labels it, e.g. "Mon, Jan 5" (the day as given, no shift). */
export function dayLabel(date: string): string {
  return new Intl.DateTimeFormat('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${date}T00:00:00Z`));
}

/** The browser's IANA time zone, so days are counted as the admin lives them. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
