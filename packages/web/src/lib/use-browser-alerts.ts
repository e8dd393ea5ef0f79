import { useCallback, useState } from 'react';
import { toast } from 'react-toastify';
import { setupPushReporting } from './push-failure.ts';
import { pushPermission } from './push-subscription.ts';

/** The spec's warning toast when permission is denied, once at a time. */
export const warnPushDenied = (message: string) => toast.warning(message, { toastId: 'push-permission' });

/**
 * Push notifications for this browser, asked for only when the user chooses "Enable alerts on
 * this browser" (a browser's permission prompt must answer a click, never a page load). Denied:
 * the spec's warning toast. Any other failure is kept, with its reason, for the notice that says
 * push is off (usePushFailure).
 */
export function useBrowserAlerts(userId: string | null) {
  const [permission, setPermission] = useState(pushPermission);
  const [busy, setBusy] = useState(false);
  const enable = useCallback(async () => {
    if (!userId) return;
    setBusy(true);
    try {
      await setupPushReporting(userId, warnPushDenied);
    } finally {
      setBusy(false);
      setPermission(pushPermission());
    }
  }, [userId]);
  return { permission, enable, busy };
}
