import type { AlertRecord } from '@vitalwatch/shared';
import { useRealtimeEvent } from '@/lib/socket.ts';
import { useAppDispatch } from '@/lib/store/hooks.ts';
import { useWhenConnected } from '@/lib/use-when-connected.ts';
import { isUrgent, urgentAlertsApi, useUrgentAlertsQuery } from '../api/urgent-alerts.ts';
import { mergeNewest } from '../utils/merge-alerts.ts';

const NONE: AlertRecord[] = [];

/**
 * Active high-priority alerts of the user's devices (`urgentAlerts` in the store), kept current:
 * fetched on every socket (re)connect, new ones added live, acknowledged or resolved ones (by
 * anyone) removed live.
 */
export function useUrgentAlerts(): AlertRecord[] {
  const dispatch = useAppDispatch();
  const query = useUrgentAlertsQuery();
  const update = (change: (alerts: AlertRecord[]) => AlertRecord[]) =>
    dispatch(urgentAlertsApi.util.updateQueryData('urgentAlerts', undefined, change));

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
  return query.data ?? NONE;
}
