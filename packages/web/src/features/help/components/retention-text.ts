import { DEFAULT_RETENTION_DAYS } from '@vitalwatch/shared';

/** "90 days", "2 years": a retention period as a person would say it. */
function period(days: number): string {
  if (days % 365 === 0) return days === 365 ? '1 year' : `${days / 365} years`;
  return `${days} days`;
}

/** How long the server keeps readings, their summaries and the audit log, unless its operator changed it. */
export const RETENTION_TEXT = {
  raw: period(DEFAULT_RETENTION_DAYS.raw),
  rollups: period(DEFAULT_RETENTION_DAYS.rollups),
  audit: period(DEFAULT_RETENTION_DAYS.audit),
} as const;
