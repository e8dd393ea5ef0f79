import type { AlertLifecycle, AlertRecord } from '@vitalwatch/shared';
import type { AlertQuery, AlertsPage } from '../api/get-alerts-page.ts';
import { countNew, markedRead, mergeNewest, withLifecycle } from './merge-alerts.ts';

/** Alerts History's loaded pages as the store keeps them. */
export interface HistoryPages {
  pages: AlertsPage[];
  pageParams: (string | null)[];
}

/** What the list shows: every loaded alert once, in order, and the counts of the newest answer. */
export function historyView({ pages }: HistoryPages) {
  const seen = new Set<string>();
  const alerts = pages.flatMap((p) => p.alerts).filter((a) => !seen.has(a._id) && seen.add(a._id));
  const last = pages.at(-1);
  return {
    alerts,
    nextCursor: last?.nextCursor ?? null,
    /** All alerts matching the filters, and how many of them are unread (server counts, kept current). */
    total: last?.total ?? 0,
    unreadCount: last?.unreadCount ?? 0,
  };
}

/** Whether a live alert belongs in the list these filters show. */
export function matchesQuery(alert: AlertRecord, q: AlertQuery): boolean {
  const t = Date.parse(alert.createdAt);
  return (
    (!q.deviceId || alert.device === q.deviceId) &&
    (!q.from || t >= Date.parse(q.from)) &&
    (!q.to || t <= Date.parse(q.to))
  );
}

/** Whether two sets of filters ask for the same list. */
export const sameQuery = (a: AlertQuery, b: AlertQuery): boolean =>
  a.deviceId === b.deviceId &&
  a.from === b.from &&
  a.to === b.to &&
  (a.sort ?? 'recent') === (b.sort ?? 'recent');

// The functions below change the store's draft in place (Immer). Pages after the first keep only
// their cursors once alerts were merged in: the order is kept in the first page.

/** New alerts (live, or caught up after a reconnect) join the list in its order; the counts grow. */
export function addToHistory(
  data: HistoryPages,
  incoming: readonly AlertRecord[],
  byPriority: boolean,
): void {
  const { alerts } = historyView(data);
  const { added, unread } = countNew(alerts, incoming);
  if (added === 0) return;
  const merged = mergeNewest(alerts, incoming, byPriority);
  data.pages.forEach((page, i) => {
    page.alerts = i === 0 ? merged : [];
    page.total += added;
    page.unreadCount += unread;
  });
}

/**
 * These alerts are now read. The unread count drops by those of them the list shows unread, or,
 * with `allMatching` (they are every unread alert of these filters), by all of them.
 */
export function readInHistory(data: HistoryPages, ids: ReadonlySet<string>, allMatching = false): void {
  const shownUnread = historyView(data).alerts.filter((a) => ids.has(a._id) && !a.isRead).length;
  const drop = allMatching ? ids.size : shownUnread;
  for (const page of data.pages) {
    page.alerts = markedRead(page.alerts, ids);
    page.unreadCount = Math.max(0, page.unreadCount - drop);
  }
}

/** Someone acknowledged or resolved an alert: its shared state changes wherever it is listed. */
export function lifecycleInHistory(data: HistoryPages, update: AlertLifecycle): void {
  for (const page of data.pages) page.alerts = withLifecycle(page.alerts, update);
}
