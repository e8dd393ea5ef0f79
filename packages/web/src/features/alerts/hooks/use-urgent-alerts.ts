import type { AlertRecord } from '@vitalwatch/shared';
import { useRealtimeEvent } from '@/lib/socket.ts';
import { useAppDispatch } from '@/lib/store/hooks.ts';
import { useWhenConnected } from '@/lib/use-when-connected.ts';
import { isUrgent, urgentAlertsApi, useUrgentAlertsQuery } from '../api/get-urgent-alerts.ts';
import { mergeNewest } from '../utils/merge-alerts.ts';

const NONE: AlertRecord[] = [];

export interface UrgentAlerts {
  /** Newest arrival first: what was last fetched, with live changes since. */
  alerts: AlertRecord[];
  /** The last fetch failed: `alerts` may be out of date (or, never fetched, missing). */
  refreshFailed: boolean;
  /** When the alerts were last fetched (ms since epoch), null before the first success. */
  knownAt: number | null;
  retry: () => void;
}

/**
 * Active high-priority alerts of the user's devices (`urgentAlerts` in the store), kept current:
 * fetched on every socket (re)connect, new ones added live, acknowledged or resolved ones (by
 * anyone) removed live. A failed fetch keeps what was known and says so.
 */
export function useUrgentAlerts(): UrgentAlerts {
  const dispatch = useAppDispatch();
  const query = useUrgentAlertsQuery();
  const update = (change: (alerts: AlertRecord[]) => AlertRecord[]) => {
    // Never fetched (the first fetch failed): a live FALL must still show, so it starts the list.
    if (query.data === undefined)
      dispatch(urgentAlertsApi.util.upsertQueryData('urgentAlerts', undefined, change([])));
    else dispatch(urgentAlertsApi.util.updateQueryData('urgentAlerts', undefined, change));
  };

  const afterLiveChange = useWhenConnected(query.isFetching, () => void query.refetch());
  useRealtimeEvent('alerts', (incoming) => {
    const urgent = incoming.filter(isUrgent);
    if (urgent.length === 0) return;
    update((alerts) => mergeNewest(alerts, urgent, false, 'receivedAt'));
    afterLiveChange();
  });
  useRealtimeEvent('lifecycle', (change) => {
    if (isUrgent(change)) return;
    update((alerts) => alerts.filter((a) => a._id !== change._id));
    afterLiveChange();
  });
  return {
    alerts: query.data ?? NONE,
    refreshFailed: query.isError && !query.isFetching,
    knownAt: query.data ? (query.fulfilledTimeStamp ?? null) : null,
    retry: () => void query.refetch(),
  };
}
