import { DEMO_ALERT_INTERVAL_MS } from '@vitalwatch/shared';
import { useCallback, useEffect, useReducer, useState } from 'react';
import { type DemoAlert, demoAlertsReducer, initialDemoAlerts } from './demo-alerts.ts';

export interface DemoAlerts {
  alerts: DemoAlert[];
  unread: number;
  /** The moment the time labels are measured from; moves on with every tick. */
  now: number;
  markRead: (id: number) => void;
}

/** Live sample alerts: a new one every 15 s on top, only the newest five kept. */
export function useDemoAlerts(): DemoAlerts {
  const [state, dispatch] = useReducer(demoAlertsReducer, Date.now(), initialDemoAlerts);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    const timer = setInterval(() => {
      const at = Date.now();
      setNow(at);
      dispatch({ type: 'tick', now: at });
    }, DEMO_ALERT_INTERVAL_MS);
    return () => clearInterval(timer);
  }, []);

  const markRead = useCallback((id: number) => dispatch({ type: 'markRead', id }), []);
  return { alerts: state.alerts, unread: state.alerts.filter((a) => !a.read).length, now, markRead };
}
