import { type AlertRecord, ERRORS, RECENT_ALERTS_COUNT } from '@vitalwatch/shared';
import { useRealtimeEvent } from '@/lib/socket.ts';
import { useAppDispatch } from '@/lib/store/hooks.ts';
import { queryView } from '@/lib/store/query-view.ts';
import { useWhenConnected } from '@/lib/use-when-connected.ts';
import { latestAlertsApi, useLatestAlertsQuery } from '../api/get-latest-alerts.ts';
import { mergeNewest, withLifecycle } from '../utils/merge-alerts.ts';
import { useMarkRead } from './use-mark-read.ts';

/**
 * The 3 newest alerts (`latestAlerts` in the store): live ones go on top of the cached list, and
 * it is fetched again whenever the socket (re)connects.
 */
export function useRecentAlerts() {
  const dispatch = useAppDispatch();
  const query = useLatestAlertsQuery(RECENT_ALERTS_COUNT);
  const update = (change: (alerts: AlertRecord[]) => AlertRecord[]) =>
    dispatch(latestAlertsApi.util.updateQueryData('latestAlerts', RECENT_ALERTS_COUNT, change));

  const afterLiveChange = useWhenConnected(query.isFetching, () => void query.refetch());
  useRealtimeEvent('alerts', (incoming) => {
    update((alerts) => mergeNewest(alerts, incoming, false, 'receivedAt').slice(0, RECENT_ALERTS_COUNT));
    afterLiveChange();
  });
  useRealtimeEvent('lifecycle', (change) => {
    update((alerts) => withLifecycle(alerts, change));
    afterLiveChange();
  });
  const markRead = useMarkRead();

  return {
    state: queryView(query, ERRORS.alertsFetchFailed, ERRORS.unexpected),
    retry: () => void query.refetch(),
    markRead,
  };
}
