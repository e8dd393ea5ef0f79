import { type AlertRecord, relativeTime } from '@vitalwatch/shared';
import { Link } from 'react-router';
import { Button } from '@/components/button.tsx';
import { Spinner } from '@/components/spinner.tsx';
import { useDeviceNameOf } from '@/lib/device-names.ts';
import { dashboardFor, PATHS } from '@/lib/paths.ts';
import { useAlertAction } from '../hooks/use-alert-action.ts';

interface CompactUrgentRowProps {
  /** The newest urgent alert. */
  alert: AlertRecord;
  /** How many urgent alerts there are in all. */
  count: number;
  now: Date;
}

/**
 * The urgent bar on a phone: one line, so it never hides the first vital card under it. The
 * count (to the list), the newest alert (to its wearer's dashboard) and Acknowledge.
 */
export function CompactUrgentRow({ alert, count, now }: CompactUrgentRowProps) {
  const nameOf = useDeviceNameOf();
  const { busy, act } = useAlertAction();
  return (
    <div data-testid="urgent-compact" className="flex items-center gap-2 text-sm">
      <Link
        to={PATHS.alerts}
        aria-label={`${count} urgent ${count === 1 ? 'alert' : 'alerts'}`}
        className="inline-flex min-w-7 shrink-0 items-center justify-center rounded-full bg-red-700 px-2 py-1 text-xs font-bold text-white dark:bg-red-600"
      >
        {count}
      </Link>
      <Link to={dashboardFor(alert.device)} className="min-w-0 flex-1 truncate text-red-950 dark:text-red-50">
        <span className="font-bold">{alert.alertTitle}</span> · {nameOf(alert)} ·{' '}
        <time dateTime={alert.createdAt}>{relativeTime(alert.createdAt, now)}</time>
      </Link>
      {alert.status === 'active' && (
        <Button
          size="sm"
          variant="danger"
          disabled={busy !== null}
          aria-label={`Acknowledge: ${alert.alertTitle} on ${nameOf(alert)}`}
          onClick={() => void act('acknowledge', alert)}
          className="shrink-0"
        >
          {busy === 'acknowledge' && <Spinner className="size-4" />}
          Acknowledge
        </Button>
      )}
    </div>
  );
}
