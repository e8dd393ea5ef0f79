import { ERRORS, RELATIVE_TIME_REFRESH_MS } from '@vitalwatch/shared';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/button.tsx';
import { ErrorState, LoadingRegion, Skeleton } from '@/components/status-panels.tsx';
import { PATHS } from '@/lib/paths.ts';
import { useNow } from '@/lib/use-now.ts';
import { useRecentAlerts } from '../hooks/use-recent-alerts.ts';
import { AlertItem } from './alert-item.tsx';

/** Recent Alerts: the 3 newest, live, and 'View All Alerts'. */
export function RecentAlertsCard() {
  const { state, retry, markRead } = useRecentAlerts();
  const now = useNow(RELATIVE_TIME_REFRESH_MS);
  return (
    <section
      aria-labelledby="recent-alerts-title"
      className="flex flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id="recent-alerts-title" className="mb-4 text-lg font-semibold text-slate-900 dark:text-white">
        Recent Alerts
      </h2>
      {state.status === 'loading' && (
        <LoadingRegion label="Loading recent alerts">
          <div className="space-y-3">
            {['a', 'b', 'c'].map((k) => (
              <Skeleton key={k} className="h-16 w-full" />
            ))}
          </div>
        </LoadingRegion>
      )}
      {state.status === 'error' && (
        <ErrorState title={ERRORS.alertsFetchFailed} message={state.message} onRetry={retry} />
      )}
      {state.status === 'ready' &&
        (state.data.length === 0 ? (
          <p className="rounded-xl bg-slate-50 p-4 text-sm text-slate-600 dark:bg-slate-800/60 dark:text-slate-400">
            No alerts yet. You will see them here the moment they happen.
          </p>
        ) : (
          <ul aria-live="polite" data-testid="recent-alerts" className="space-y-3">
            {state.data.map((alert) => (
              <li key={alert._id}>
                <AlertItem alert={alert} now={now} onMarkRead={(a) => void markRead(a)} />
              </li>
            ))}
          </ul>
        ))}
      <Link to={PATHS.alerts} className={buttonClasses('secondary', 'sm', 'mt-4 w-full')}>
        View All Alerts
      </Link>
    </section>
  );
}
