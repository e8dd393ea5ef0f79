import { useEffect } from 'react';
import { useRealtimeEvent } from '@/lib/socket.ts';
import { useAppDispatch } from '@/lib/store/hooks.ts';
import { setUnreadBadge } from '@/lib/unread-badge.ts';
import { useWhenConnected } from '@/lib/use-when-connected.ts';
import { unreadCountApi, useUnreadAlertsCountQuery } from '../api/get-unread-count.ts';

/**
 * How many of the user's alerts they have not read, published for the header's Alerts link:
 * fetched on every socket (re)connect, raised live as new alerts arrive, asked again once some
 * are read (`alertsRead`). Unknown again when the user area is left.
 */
export function useUnreadCount(): void {
  const dispatch = useAppDispatch();
  const query = useUnreadAlertsCountQuery();
  const afterLiveChange = useWhenConnected(query.isFetching, () => void query.refetch());
  useRealtimeEvent('alerts', (incoming) => {
    const unread = incoming.filter((a) => !a.isRead).length;
    if (unread === 0 || query.data === undefined) return;
    dispatch(unreadCountApi.util.updateQueryData('unreadAlertsCount', undefined, (n) => n + unread));
    afterLiveChange();
  });
  useEffect(() => setUnreadBadge(query.data ?? null), [query.data]);
  useEffect(() => () => setUnreadBadge(null), []);
}
