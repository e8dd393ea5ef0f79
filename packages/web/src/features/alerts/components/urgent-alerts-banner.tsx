import { RELATIVE_TIME_REFRESH_MS, relativeTime } from '@vitalwatch/shared';
import { useRef } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/button.tsx';
import { AlertTriangleIcon } from '@/components/icons.tsx';
import { unlockAlarmSound } from '@/lib/alarm-sound.ts';
import { useDeviceNameOf } from '@/lib/device-names.ts';
import { formatClock } from '@/lib/format-date.ts';
import { dashboardFor, PATHS } from '@/lib/paths.ts';
import { useCompactScreen } from '@/lib/use-compact-screen.ts';
import { useCssHeight } from '@/lib/use-css-height.ts';
import { useNow } from '@/lib/use-now.ts';
import { useUrgentAlerts } from '../hooks/use-urgent-alerts.ts';
import { useUrgentAttention } from '../hooks/use-urgent-attention.ts';
import { AlertActions } from './alert-actions.tsx';
import { CompactUrgentRow } from './compact-urgent-row.tsx';

/** More than this many urgent alerts: the rest are counted, with a link to the list. */
const SHOWN = 3;

const linkClass =
  'font-bold underline decoration-red-700/40 underline-offset-2 hover:decoration-2 dark:decoration-red-300/50';

/**
 * Shown on every page of the user area while any high-priority alert of the user's devices is
 * active (FALL, SOS, a critical value): not a toast that fades, but a bar that stays in view
 * below the header, scrolling or not, until someone acknowledges it, here or anywhere else. On a
 * phone, upright or on its side, it is one line (the count and the newest alert), so the vitals
 * under it stay on the first screen.
 * A failed refresh keeps what was known, and says so.
 */
export function UrgentAlertsBanner() {
  const { alerts, refreshFailed, knownAt, retry } = useUrgentAlerts();
  const { soundBlocked } = useUrgentAttention(alerts);
  const now = useNow(RELATIVE_TIME_REFRESH_MS);
  const nameOf = useDeviceNameOf();
  const bar = useRef<HTMLElement>(null);
  // A phone either way up: one line.
  const phone = useCompactScreen();
  useCssHeight(bar, '--urgent-bar-height');
  if (alerts.length === 0 && !refreshFailed) return null;
  const more = alerts.length - SHOWN;
  return (
    <section
      ref={bar}
      role="alert"
      aria-label="Urgent alerts"
      data-testid="urgent-banner"
      className={`sticky top-16 z-30 border-b-4 shadow-md ${
        alerts.length > 0
          ? 'border-red-700 bg-red-50 dark:border-red-400 dark:bg-red-950'
          : 'border-amber-600 bg-amber-50 dark:border-amber-400 dark:bg-amber-950'
      }`}
    >
      <div className="mx-auto max-w-7xl space-y-2 px-4 py-3 sm:px-6 lg:px-8 compact:py-2">
        {phone && alerts[0] && <CompactUrgentRow alert={alerts[0]} count={alerts.length} now={now} />}
        {!phone && alerts.length > 0 && (
          <ul className="space-y-2">
            {alerts.slice(0, SHOWN).map((alert) => (
              // The actions follow the text rather than sit at the far right, where toasts appear over them.
              <li key={alert._id} className="flex flex-row items-center gap-3">
                <p className="flex min-w-0 items-start gap-2 text-sm text-red-950 dark:text-red-50">
                  <AlertTriangleIcon className="mt-0.5 size-5 shrink-0 text-red-700 dark:text-red-300" />
                  <span className="min-w-0 break-words">
                    <Link to={dashboardFor(alert.device)} className={linkClass}>
                      {alert.alertTitle}
                    </Link>{' '}
                    · {nameOf(alert)} ·{' '}
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
        )}
        {soundBlocked && (
          <p className="flex items-center gap-2 text-sm text-red-950 dark:text-red-50">
            <span className="compact:hidden">The browser holds back the alert sound until you allow it.</span>
            <Button size="sm" variant="secondary" onClick={unlockAlarmSound}>
              Turn on sound
            </Button>
          </p>
        )}
        {refreshFailed && <RefreshFailed knownAt={knownAt} onRetry={retry} />}
      </div>
    </section>
  );
}

function RefreshFailed({ knownAt, onRetry }: { knownAt: number | null; onRetry: () => void }) {
  return (
    <p
      data-testid="urgent-refresh-failed"
      className="flex items-center gap-2 text-sm font-medium text-amber-950 dark:text-amber-50"
    >
      <AlertTriangleIcon className="size-4 shrink-0 text-amber-700 dark:text-amber-300" />
      {knownAt === null ? (
        <span className="min-w-0 compact:flex-1">Could not load urgent alerts.</span>
      ) : (
        <span className="min-w-0 compact:flex-1">
          {/* One line on a phone: the short form there, the whole sentence on larger screens. */}
          <span className="hidden compact:inline">Not refreshed since {formatClock(knownAt)}</span>
          <span className="compact:hidden">
            Could not refresh alerts — showing what was known at {formatClock(knownAt)}.
          </span>
        </span>
      )}
      <Button size="sm" variant="secondary" onClick={onRetry} className="shrink-0">
        Retry
      </Button>
    </p>
  );
}
