import {
  type AlertLifecycle,
  alertLifecycleResponse,
  type SnoozeRecord,
  snoozeResponse,
} from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** What a carer does about an alert: "I'm on it" (acknowledge) or "dealt with" (resolve). */
export type AlertAction = 'acknowledge' | 'resolve';

/** POST /alert/acknowledge/:id or /alert/resolve/:id: answers the alert's shared state afterwards. */
export async function actOnAlert(
  action: AlertAction,
  alertId: string,
  note?: string,
): Promise<AlertLifecycle> {
  const body = note ? { note } : {};
  return (
    await apiRequest(`/alert/${action}/${encodeURIComponent(alertId)}`, {
      body,
      schema: alertLifecycleResponse,
    })
  ).data.alert;
}

/** POST /alert/snooze: no push or e-mail of this device's alerts of this type to the caller for a while. */
export async function snoozeAlerts(
  deviceId: string,
  alertType: string,
  minutes: number,
): Promise<SnoozeRecord> {
  return (
    await apiRequest('/alert/snooze', { body: { deviceId, alertType, minutes }, schema: snoozeResponse })
  ).data.snooze;
}
