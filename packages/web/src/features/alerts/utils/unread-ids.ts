import { ALERTS_PAGE_MAX_LIMIT } from '@vitalwatch/shared';
import { type AlertQuery, getAlertsPage } from '../api/get-alerts-page.ts';

/** The most ids one mark-read call takes. */
export const MARK_READ_BATCH = 1000;

/** Ids of every unread alert matching the filters, read page by page (the server has no "mark all"). */
export async function collectUnreadIds(query: AlertQuery): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await getAlertsPage({ ...query, cursor, limit: ALERTS_PAGE_MAX_LIMIT });
    for (const alert of page.alerts) if (!alert.isRead) ids.add(alert._id);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return ids;
}

/** `items` in groups of at most `size`. */
export function inChunks<T>(items: readonly T[], size: number = MARK_READ_BATCH): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
