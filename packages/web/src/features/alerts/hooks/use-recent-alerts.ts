import { type AlertRecord, ERRORS, RECENT_ALERTS_COUNT } from '@vitalwatch/shared';
import { toast } from 'react-toastify';
import { errorMessage } from '@/lib/api-error.ts';
import { useRealtimeEvent } from '@/lib/socket.ts';
import { asApiError } from '@/lib/store/api.ts';
import { useAppDispatch } from '@/lib/store/hooks.ts';
import { queryView } from '@/lib/store/query-view.ts';
import { useWhenConnected } from '@/lib/use-when-connected.ts';
import { latestAlertsApi, useLatestAlertsQuery } from '../api/latest-alerts.ts';
import { useMarkAlertsReadMutation } from '../api/mark-alerts-read.ts';
import { mergeNewest, withLifecycle } from '../utils/merge-alerts.ts';

/**
 * The 3 newest alerts (`latestAlerts` in the store): live ones go on top of the cached list, and
 * it is fetched again whenever the socket (re)connects.
 */
export function useRecentAlerts() {
  const dispatch = useAppDispatch();
  const query = useLatestAlertsQuery(RECENT_ALERTS_COUNT);
  const [markAlertsRead] = useMarkAlertsReadMutation();
  const update = (change: (alerts: AlertRecord[]) => AlertRecord[]) =>
    dispatch(latestAlertsApi.util.updateQueryData('latestAlerts', RECENT_ALERTS_COUNT, change));

  useRealtimeEvent('alerts', (incoming) =>
    update((alerts) => mergeNewest(alerts, incoming, false, 'receivedAt').slice(0, RECENT_ALERTS_COUNT)),
  );
  useRealtimeEvent('lifecycle', (change) => update((alerts) => withLifecycle(alerts, change)));
  useWhenConnected(query.isFetching, () => void query.refetch());

  /** Spec 4: an unread alert becomes read on click, applied once the server agrees. */
  const markRead = async (alert: AlertRecord) => {
    if (alert.isRead) return;
    try {
      await markAlertsRead([alert._id]).unwrap();
    } catch (error) {
      toast.error(errorMessage(asApiError(error), ERRORS.markReadFailed, ERRORS.unexpected));
    }
  };

  return {
    state: queryView(query, ERRORS.alertsFetchFailed, ERRORS.unexpected),
    retry: () => void query.refetch(),
    markRead,
  };
}
