import { type AlertLifecycle, type AlertRecord, PRIORITY_RANK } from '@vitalwatch/shared';

/**
 * `incoming` alerts not yet in `list`, merged in newest first (live alerts land on top), or by
 * priority first (high, medium, low) when `byPriority`. Newest by device time (`createdAt`, the
 * history's order) or by arrival (`receivedAt`: what is new to a carer, where a late SOS belongs on top).
 */
export function mergeNewest(
  list: readonly AlertRecord[],
  incoming: readonly AlertRecord[],
  byPriority = false,
  newestBy: 'createdAt' | 'receivedAt' = 'createdAt',
): AlertRecord[] {
  const time = (a: AlertRecord) => Date.parse(a[newestBy]);
  const known = new Set(list.map((a) => a._id));
  const fresh = incoming.filter((a) => !known.has(a._id));
  if (fresh.length === 0) return [...list];
  return [...fresh, ...list].sort(
    (a, b) =>
      (byPriority ? PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority] : 0) ||
      time(b) - time(a) ||
      Date.parse(b.createdAt) - Date.parse(a.createdAt) ||
      (a._id < b._id ? 1 : -1),
  );
}

/** How many of `incoming` are new to `list`, and how many of those are unread. */
export function countNew(list: readonly AlertRecord[], incoming: readonly AlertRecord[]) {
  const known = new Set(list.map((a) => a._id));
  const fresh = incoming.filter((a) => !known.has(a._id));
  return { added: fresh.length, unread: fresh.filter((a) => !a.isRead).length };
}

/** The alerts with these ids marked read. */
export function markedRead(list: readonly AlertRecord[], ids: ReadonlySet<string>): AlertRecord[] {
  return list.map((a) => (ids.has(a._id) && !a.isRead ? { ...a, isRead: true } : a));
}

/** The list with one alert's shared state (priority, status, acknowledged, resolved) replaced. */
export function withLifecycle(list: readonly AlertRecord[], update: AlertLifecycle): AlertRecord[] {
  return list.map((a) => (a._id === update._id ? { ...a, ...update } : a));
}
