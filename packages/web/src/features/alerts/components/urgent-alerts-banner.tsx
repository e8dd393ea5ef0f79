import { RELATIVE_TIME_REFRESH_MS, relativeTime } from '@vitalwatch/shared';
import { Link } from 'react-router';
import { AlertTriangleIcon } from '@/components/icons.tsx';
import { PATHS } from '@/lib/paths.ts';
import { useNow } from '@/lib/use-now.ts';
import { useUrgentAlerts } from '../hooks/use-urgent-alerts.ts';
import { AlertActions } from './alert-actions.tsx';

/** More than this many urgent alerts: the rest are counted, with a link to the list. */
const SHOWN = 3;

/**
 * Shown on every page of the user area while any high-priority alert of the user's devices is
 * active (FALL, SOS, a critical value): not a toast that fades, but a banner that stays until
 * someone acknowledges it, here or anywhere else.
 */
export function UrgentAlertsBanner() {
  const alerts = useUrgentAlerts();
  const now = useNow(RELATIVE_TIME_REFRESH_MS);
  if (alerts.length === 0) return null;
  const more = alerts.length - SHOWN;
  return (
    <section
      role="alert"
      aria-label="Urgent alerts"
      data-testid="urgent-banner"
      className="border-b-4 border-red-700 bg-red-50 dark:border-red-400 dark:bg-red-950/60"
    >
      <ul className="mx-auto max-w-7xl space-y-2 px-4 py-3 sm:px-6 lg:px-8">
        {alerts.slice(0, SHOWN).map((alert) => (
          // The actions follow the text rather than sit at the far right, where toasts appear over them.
          <li key={alert._id} className="flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-3">
            <p className="flex min-w-0 items-start gap-2 text-sm text-red-950 dark:text-red-50">
              <AlertTriangleIcon className="mt-0.5 size-5 shrink-0 text-red-700 dark:text-red-300" />
              <span className="min-w-0 break-words">
                <span className="font-bold">{alert.alertTitle}</span> · {alert.deviceName} ·{' '}
                <time dateTime={alert.createdAt}>{relativeTime(alert.createdAt, now)}</time>
              </span>
            </p>
            <AlertActions alert={alert} />
          </li>
        ))}
        {more > 0 && (
          <li className="text-sm font-semibold">
            <Link to={PATHS.alerts} className="text-red-800 underline dark:text-red-200">
              {more} more urgent {more === 1 ? 'alert' : 'alerts'}
            </Link>
          </li>
        )}
      </ul>
    </section>
  );
}
