import { type AlertRecord, PRIORITY_LABELS } from '@vitalwatch/shared';
import { useCallback, useEffect } from 'react';
import { Outlet, useMatch } from 'react-router';
import { toast } from 'react-toastify';
import { isUrgent } from '@/features/alerts/api/get-urgent-alerts.ts';
import { EnableAlertsPrompt } from '@/features/alerts/components/enable-alerts-prompt.tsx';
import { PushFailedNotice } from '@/features/alerts/components/push-failed-notice.tsx';
import { UrgentAlertsBanner } from '@/features/alerts/components/urgent-alerts-banner.tsx';
import { useUnreadCount } from '@/features/alerts/hooks/use-unread-count.ts';
import { alertToastId } from '@/features/alerts/hooks/use-urgent-attention.ts';
import { useUserDevicesQuery } from '@/features/devices/api/get-devices.ts';
import { type DeviceNameOf, DeviceNamesContext, type NamedDevice } from '@/lib/device-names.ts';
import { PATHS } from '@/lib/paths.ts';
import { clearPushFailure, setupPushReporting } from '@/lib/push-failure.ts';
import {
  forgetSentToken,
  pushPermission,
  registerServiceWorker,
  showForegroundNotification,
} from '@/lib/push-subscription.ts';
import { useRealtimeConnection, useRealtimeEvent } from '@/lib/socket.ts';
import { selectCurrentUser } from '@/lib/store/auth-slice.ts';
import { useAppSelector } from '@/lib/store/hooks.ts';
import { warnPushDenied } from '@/lib/use-browser-alerts.ts';
import { useCompactScreen } from '@/lib/use-compact-screen.ts';
import { OutageBanner } from './outage-banner.tsx';

/** More alerts than this in one event are summed up in a single toast. */
const TOASTS_PER_EVENT = 3;

function announce(alerts: readonly AlertRecord[], nameOf: DeviceNameOf) {
  if (alerts.length > TOASTS_PER_EVENT) {
    toast.info(`${alerts.length} new alerts from your devices`);
  } else {
    for (const alert of alerts) {
      // Colour by priority. An unacknowledged high-priority one stays (no 3 s auto-close) until
      // closed or acknowledged (the banner then closes it), and in the urgent banner.
      const show =
        alert.priority === 'high' ? toast.error : alert.priority === 'medium' ? toast.warning : toast.info;
      show(`${PRIORITY_LABELS[alert.priority]} · ${nameOf(alert)}: ${alert.alertTitle}`, {
        toastId: alertToastId(alert._id),
        ...(isUrgent(alert) ? { autoClose: false } : {}),
      });
    }
  }
  for (const alert of alerts) {
    showForegroundNotification(alert).catch((error: unknown) =>
      console.warn('Could not show a notification for a live alert', error),
    );
  }
}

/**
 * /sw.js in every signed-in browser, push or not: a reload while the server is down gets its offline page.
 * Registered once the page has loaded, so its install (fetching and caching the offline page) does not
 * compete with the first render (web.dev, "Service worker registration").
 */
function useServiceWorker() {
  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    const register = () =>
      registerServiceWorker().catch((error: unknown) =>
        console.warn('The service worker is not registered', error),
      );
    if (document.readyState === 'complete') {
      void register();
      return;
    }
    window.addEventListener('load', register, { once: true });
    return () => window.removeEventListener('load', register);
  }, []);
}

/**
 * The user's other screens (user-pages.ts), fetched once the browser is idle: moving there rarely
 * waits. A failed fetch (the browser offline at that moment) is left to the route, which fetches
 * the code again when the user moves there and shows its own error if it still cannot.
 */
function usePrefetchUserPages() {
  useEffect(() => {
    const prefetch = () => {
      import('../areas/user-pages.ts').catch(() => undefined);
    };
    if ('requestIdleCallback' in window) {
      const id = window.requestIdleCallback(prefetch, { timeout: 5_000 });
      return () => window.cancelIdleCallback(id);
    }
    const timer = setTimeout(prefetch, 2_000);
    return () => clearTimeout(timer);
  }, []);
}

/**
 * The header's unread count, in a component of its own: its fetches starting and ending redraw
 * nothing else.
 */
function UnreadCount() {
  useUnreadCount();
  return null;
}

/**
 * Everything under /dashboard: keeps the live connection open while the user is signed in,
 * announces every new alert (a toast, and a system notification when permission was given) and
 * keeps active high-priority alerts in a banner until acknowledged, whichever page is on screen.
 * On a phone's dashboard the offer of browser alerts comes after the vitals (OverviewPage), so
 * the first screen shows them.
 * Says when live data has stopped, and when push could not be set up on this browser.
 */
export function UserAreaLayout() {
  const user = useAppSelector(selectCurrentUser);
  const userId = user?._id ?? null;
  useRealtimeConnection(userId);
  useServiceWorker();
  usePrefetchUserPages();
  useEffect(() => {
    if (!userId) return;
    // Permission is asked only from an explicit control (EnableAlertsPrompt, Profile). Already
    // granted: keep this browser's subscription saved for the signed-in user. Denied: the stored
    // token is forgotten (spec section 4); the warning comes when the user asks for alerts.
    const permission = pushPermission();
    if (permission === 'denied') forgetSentToken();
    if (permission === 'granted') void setupPushReporting(userId, warnPushDenied);
    return clearPushFailure;
  }, [userId]);
  // Kept loaded in the whole user area: each user's own name for a device (a nickname) is in it.
  // Only the list is read here: a fetch starting or ending does not draw the whole area again.
  const { data: devices, refetch: refetchDevices } = useUserDevicesQuery(undefined, {
    skip: !userId,
    selectFromResult: ({ data }) => ({ data }),
  });
  // Removed from (or let into) a care circle: every screen of devices follows at once.
  useRealtimeEvent('devicesChanged', () => void refetchDevices());
  const nameOf = useCallback<DeviceNameOf>(
    (named: NamedDevice) => devices?.find((d) => d._id === named.device)?.deviceName ?? named.deviceName,
    [devices],
  );
  useRealtimeEvent('alerts', (alerts) => announce(alerts, nameOf));
  const compact = useCompactScreen();
  const onDashboard = useMatch(PATHS.dashboard) !== null;
  const promptBelowVitals = compact && onDashboard;
  return (
    <DeviceNamesContext.Provider value={nameOf}>
      <UrgentAlertsBanner />
      <OutageBanner />
      {!promptBelowVitals && (
        <div className="mx-auto mt-4 w-full max-w-7xl px-4 empty:hidden sm:px-6 lg:px-8 compact:mt-2">
          <EnableAlertsPrompt userId={userId} />
        </div>
      )}
      <PushFailedNotice userId={userId} />
      <UnreadCount />
      <Outlet />
    </DeviceNamesContext.Provider>
  );
}
