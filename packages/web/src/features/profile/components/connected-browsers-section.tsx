import { type PushBrowser, relativeTime } from '@vitalwatch/shared';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { Button } from '@/components/button.tsx';
import { Card } from '@/components/card.tsx';
import { ErrorState, LoadingRegion, Skeleton } from '@/components/status-panels.tsx';
import { errorMessage } from '@/lib/api-error.ts';
import { asApiError } from '@/lib/store/api.ts';
import { selectCurrentUser } from '@/lib/store/auth-slice.ts';
import { useAppSelector } from '@/lib/store/hooks.ts';
import { queryView } from '@/lib/store/query-view.ts';
import { useBrowserAlerts } from '@/lib/use-browser-alerts.ts';
import { usePushBrowsersQuery } from '../api/get-push-browsers.ts';
import { useRemovePushBrowserMutation } from '../api/remove-push-browser.ts';
import { browserName } from '../utils/browser-name.ts';
import { ChannelChecksToggle } from './channel-checks-toggle.tsx';

const LOAD_FAILED = 'Failed to fetch connected browsers';

/** The browsers that receive this user's push notifications, each removable. */
export function ConnectedBrowsersSection() {
  const browsers = usePushBrowsersQuery();
  const state = queryView(browsers, LOAD_FAILED);
  const load = () => void browsers.refetch();
  const [removePushBrowser] = useRemovePushBrowserMutation();
  const [removing, setRemoving] = useState<string | null>(null);

  const remove = async (browser: PushBrowser) => {
    setRemoving(browser._id);
    try {
      await removePushBrowser(browser._id).unwrap();
      toast.success('Browser disconnected');
    } catch (error) {
      toast.error(errorMessage(asApiError(error), 'Failed to disconnect browser'));
    } finally {
      setRemoving(null);
    }
  };

  return (
    <Card
      id="browsers-title"
      title="Connected Browsers"
      description="Browsers that show push notifications for your alerts. A browser whose daily checks go unanswered is marked not receiving."
    >
      <ThisBrowser onEnabled={load} />
      {state.status === 'loading' && (
        <LoadingRegion label="Loading connected browsers">
          <Skeleton className="h-14 w-full" />
        </LoadingRegion>
      )}
      {state.status === 'error' && <ErrorState title={LOAD_FAILED} message={state.message} onRetry={load} />}
      {state.status === 'ready' && state.data.length === 0 && (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          No browser receives push notifications yet.
        </p>
      )}
      {state.status === 'ready' && state.data.length > 0 && (
        <ul className="divide-y divide-slate-100 dark:divide-slate-800">
          {state.data.map((browser) => {
            const name = browserName(browser.userAgent);
            return (
              <li key={browser._id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="min-w-0">
                  <p className="font-medium text-slate-900 dark:text-white">
                    {name}
                    {browser.notReceivingSince && <NotReceiving since={browser.notReceivingSince} />}
                  </p>
                  <p className="text-xs text-slate-500 dark:text-slate-400">
                    Connected {relativeTime(browser.createdAt)} · via {browser.pushService}
                    {browser.lastSuccessAt && ` · last notified ${relativeTime(browser.lastSuccessAt)}`}
                    {browser.lastReceiptAt && ` · last shown ${relativeTime(browser.lastReceiptAt)}`}
                  </p>
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={`Remove ${name}`}
                  disabled={removing === browser._id}
                  onClick={() => void remove(browser)}
                >
                  Remove
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <ChannelChecksToggle />
    </Card>
  );
}

/** The browser's daily checks went unanswered: alerts sent to it are probably not seen. */
function NotReceiving({ since }: { since: string }) {
  return (
    <span
      className="ml-2 rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800 dark:bg-red-900/50 dark:text-red-200"
      title={`Its daily checks went unanswered since ${new Date(since).toLocaleString()}`}
    >
      Not receiving
    </span>
  );
}

/** This browser's state, and the explicit control that asks for notification permission. */
function ThisBrowser({ onEnabled }: { onEnabled: () => void }) {
  const userId = useAppSelector(selectCurrentUser)?._id ?? null;
  const { permission, enable, busy } = useBrowserAlerts(userId);
  const line =
    'mb-4 rounded-xl bg-slate-50 p-3 text-sm text-slate-700 dark:bg-slate-800/60 dark:text-slate-300';
  if (permission === 'granted') return null;
  if (permission === 'unsupported')
    return <p className={line}>This browser cannot show push notifications.</p>;
  return (
    <div className={`${line} flex flex-wrap items-center justify-between gap-3`}>
      <p>
        {permission === 'denied'
          ? 'Notifications are blocked for VitalWatch in this browser. Allow them in its site settings, then try again.'
          : 'This browser does not show your alerts when VitalWatch is closed.'}
      </p>
      <Button
        size="sm"
        disabled={busy}
        onClick={() => {
          void enable().then(onEnabled);
        }}
      >
        Enable alerts on this browser
      </Button>
    </div>
  );
}
