import { type AlertLifecycle, type AlertRecord, ERRORS, RECENT_ALERTS_COUNT } from '@vitalwatch/shared';
import { useCallback, useEffect, useState } from 'react';
import { toast } from 'react-toastify';
import { errorMessage } from '@/lib/api-error.ts';
import { useRealtimeEvent } from '@/lib/socket.ts';
import { getLatestAlerts } from '../api/get-latest-alerts.ts';
import { markAlertsRead } from '../api/mark-alerts-read.ts';
import { markedRead, mergeNewest, withLifecycle } from '../utils/merge-alerts.ts';

export type RecentAlertsState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; alerts: AlertRecord[] };

/** The 3 newest alerts; live ones go on top, and they are fetched again whenever the socket (re)connects. */
export function useRecentAlerts() {
  const [state, setState] = useState<RecentAlertsState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` asks for a new fetch (retry, socket (re)connected).
  useEffect(() => {
    let active = true;
    getLatestAlerts(RECENT_ALERTS_COUNT).then(
      (alerts) => {
        if (active) setState({ status: 'ready', alerts });
      },
      (error: unknown) => {
        if (active)
          setState({
            status: 'error',
            message: errorMessage(error, ERRORS.alertsFetchFailed, ERRORS.unexpected),
          });
      },
    );
    return () => {
      active = false;
    };
  }, [attempt]);

  useRealtimeEvent('alerts', (incoming) => {
    setState((s) =>
      s.status === 'ready'
        ? { ...s, alerts: mergeNewest(s.alerts, incoming, false, 'receivedAt').slice(0, RECENT_ALERTS_COUNT) }
        : s,
    );
  });
  useRealtimeEvent('connected', () => setAttempt((n) => n + 1));
  const applyLifecycle = useCallback((update: AlertLifecycle) => {
    setState((s) => (s.status === 'ready' ? { ...s, alerts: withLifecycle(s.alerts, update) } : s));
  }, []);
  useRealtimeEvent('lifecycle', applyLifecycle);

  /** Spec 4: an unread alert becomes read on click, applied once the server agrees. */
  const markRead = useCallback(async (alert: AlertRecord) => {
    if (alert.isRead) return;
    try {
      await markAlertsRead([alert._id]);
      setState((s) =>
        s.status === 'ready' ? { ...s, alerts: markedRead(s.alerts, new Set([alert._id])) } : s,
      );
    } catch (error) {
      toast.error(errorMessage(error, ERRORS.markReadFailed, ERRORS.unexpected));
    }
  }, []);

  const retry = useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((n) => n + 1);
  }, []);
  return { state, retry, applyLifecycle, markRead };
}
