import { PUSH_FAILURE_MESSAGES } from '@vitalwatch/shared';
import { Button } from '@/components/button.tsx';
import { BellIcon } from '@/components/icons.tsx';
import { Spinner } from '@/components/spinner.tsx';
import { clearPushFailure, usePushFailure } from '@/lib/push-failure.ts';
import { useBrowserAlerts } from '@/lib/use-browser-alerts.ts';

/**
 * Push was wanted on this browser (permission granted) but could not be set up: says that alerts
 * will not reach it while VitalWatch is closed, why, and offers to try again.
 */
export function PushFailedNotice({ userId }: { userId: string | null }) {
  const reason = usePushFailure();
  const { enable, busy } = useBrowserAlerts(userId);
  if (!reason) return null;
  return (
    <div className="mx-auto mt-4 w-full max-w-7xl px-4 sm:px-6 lg:px-8">
      <section
        role="alert"
        aria-label={PUSH_FAILURE_MESSAGES.title}
        data-testid="push-failed"
        className="flex flex-col gap-3 rounded-2xl border border-amber-300 bg-amber-50 px-4 py-3 sm:flex-row sm:items-center sm:justify-between dark:border-amber-800 dark:bg-amber-950/50"
      >
        <div className="flex items-start gap-2 text-sm text-amber-950 dark:text-amber-50">
          <BellIcon className="mt-0.5 size-4 shrink-0" />
          <p className="min-w-0 break-words">
            <strong>{PUSH_FAILURE_MESSAGES.title}</strong> — you will not get alerts here while VitalWatch is
            closed. {reason}.
          </p>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          <Button size="sm" variant="secondary" disabled={busy} onClick={() => void enable()}>
            {busy && <Spinner className="size-4" />}
            Retry
          </Button>
          <Button size="sm" variant="ghost" onClick={clearPushFailure}>
            Not now
          </Button>
        </div>
      </section>
    </div>
  );
}
