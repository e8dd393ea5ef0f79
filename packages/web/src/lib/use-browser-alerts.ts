import { useCallback, useState } from 'react';
import { toast } from 'react-toastify';
import { pushPermission, setupPush } from './push-subscription.ts';

/**
 * Push notifications for this browser, asked for only when the user chooses "Enable alerts on
 * this browser" (a browser's permission prompt must answer a click, never a page load). Denied:
 * the spec's warning toast. Other setup errors are only logged (spec section 8).
 */
export function useBrowserAlerts(userId: string | null) {
  const [permission, setPermission] = useState(pushPermission);
  const [busy, setBusy] = useState(false);
  const enable = useCallback(async () => {
    if (!userId) return;
    setBusy(true);
    try {
      await setupPush({ userId, warn: (message) => toast.warning(message, { toastId: 'push-permission' }) });
    } catch (error) {
      console.warn('Push notifications are not set up', error);
    } finally {
      setBusy(false);
      setPermission(pushPermission());
    }
  }, [userId]);
  return { permission, enable, busy };
}
