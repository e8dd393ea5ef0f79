import { type AlertRecord, ERRORS, RECENT_ALERTS_COUNT } from '@vitalwatch/shared';
import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../../../lib/api-error.ts';
import { useRealtimeEvent } from '../../../lib/socket.ts';
import { getLatestAlerts } from '../api/get-latest-alerts.ts';
import { mergeNewest } from '../utils/merge-alerts.ts';

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
        ? { ...s, alerts: mergeNewest(s.alerts, incoming).slice(0, RECENT_ALERTS_COUNT) }
        : s,
    );
  });
  useRealtimeEvent('connected', () => setAttempt((n) => n + 1));

  const retry = useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((n) => n + 1);
  }, []);
  return { state, retry };
}
