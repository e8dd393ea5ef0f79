import type { AlertRecord } from '../schemas/alert.ts';
import type { PushMessage } from '../schemas/push.ts';
import type { AlertPriority } from './alarms.ts';

/** Notification icons (spec section 9); the service worker uses the same paths. */
export const NOTIFICATION_ICON = '/pwa-192x192.png';
export const NOTIFICATION_BADGE = '/pwa-64x64.png';
/** Where a click on an alert notification leads. */
export const ALERTS_PAGE_PATH = '/dashboard/alerts';

/**
 * The notification for an alert, the same whether it arrives by Web Push or over the socket: one
 * tag per device and alert type, so a newer alert of that kind replaces the older notification.
 * An escalation step (`repeat` ≥ 1) says the alert is still unacknowledged and sounds again.
 */
export const alertNotification = (
  alert: Pick<AlertRecord, '_id' | 'device' | 'alertType' | 'alertTitle' | 'alertMessage' | 'priority'>,
  repeat = 0,
): PushMessage => ({
  title: repeat > 0 ? `Still unacknowledged: ${alert.alertTitle}` : alert.alertTitle,
  body: alert.alertMessage,
  tag: `${alert.device}:${alert.alertType}`,
  url: ALERTS_PAGE_PATH,
  alertId: alert._id,
  priority: alert.priority,
  ...(repeat > 0 ? { renotify: true } : {}),
});

/**
 * Priority in words, the same in the app, toasts and e-mails, after IEC 60601-1-8: high needs
 * someone now, medium soon, low is for awareness.
 */
export const PRIORITY_LABELS: Record<AlertPriority, string> = {
  high: 'High priority',
  medium: 'Medium priority',
  low: 'Low priority',
};

/** LOW_SPO2 → 'Low SpO2', HIGH_HEART_RATE → 'High Heart Rate'. */
export function alertTypeLabel(alertType: string): string {
  if (alertType === 'SOS') return 'SOS';
  return alertType
    .split('_')
    .map((w) => (w === 'SPO2' ? 'SpO2' : w.charAt(0) + w.slice(1).toLowerCase()))
    .join(' ');
}
