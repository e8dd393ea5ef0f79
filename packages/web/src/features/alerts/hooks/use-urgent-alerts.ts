import { ALERTS_PAGE_MAX_LIMIT, type AlertLifecycle, type AlertRecord } from '@vitalwatch/shared';
import { useCallback, useEffect, useState } from 'react';
import { useRealtimeEvent } from '@/lib/socket.ts';
import { getAlertsPage } from '../api/get-alerts-page.ts';
import { mergeNewest } from '../utils/merge-alerts.ts';

const isUrgent = (a: Pick<AlertRecord, 'priority' | 'status'>) =>
  a.priority === 'high' && a.status === 'active';

/**
 * Active high-priority alerts of the user's devices, kept current: fetched on every socket
 * (re)connect, new ones added live, acknowledged or resolved ones (by anyone) removed live.
 */
export function useUrgentAlerts() {
  const [alerts, setAlerts] = useState<AlertRecord[]>([]);
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` asks for a new fetch (socket (re)connected).
  useEffect(() => {
    const controller = new AbortController();
    getAlertsPage(
      { status: 'active', priority: 'high', limit: ALERTS_PAGE_MAX_LIMIT },
      controller.signal,
    ).then(
      // Newest arrival first, as live ones join: a late SOS is on top.
      (page) => setAlerts(mergeNewest([], page.alerts, false, 'receivedAt')),
      // The banner keeps what it has; the next reconnect tries again.
      (error: unknown) => {
        if (!controller.signal.aborted) console.warn('Could not fetch urgent alerts', error);
      },
    );
    return () => controller.abort();
  }, [attempt]);

  useRealtimeEvent('connected', () => setAttempt((n) => n + 1));
  useRealtimeEvent('alerts', (incoming) => {
    const urgent = incoming.filter(isUrgent);
    if (urgent.length > 0) setAlerts((list) => mergeNewest(list, urgent, false, 'receivedAt'));
  });
  const applyLifecycle = useCallback((update: AlertLifecycle) => {
    if (!isUrgent(update)) setAlerts((list) => list.filter((a) => a._id !== update._id));
  }, []);
  useRealtimeEvent('lifecycle', applyLifecycle);
  return { alerts, applyLifecycle };
}
