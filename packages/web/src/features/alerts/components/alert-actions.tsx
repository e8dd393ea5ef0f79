import {
  type AlertRecord,
  alertTypeLabel,
  relativeTime,
  SNOOZE_MINUTES,
  type SnoozeInput,
  URGENT_ALERT_TYPES,
  VITAL_ALARM_TYPES,
} from '@vitalwatch/shared';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { Button } from '@/components/button.tsx';
import { Spinner } from '@/components/spinner.tsx';
import { errorMessage } from '@/lib/api-error.ts';
import { useDeviceNameOf } from '@/lib/device-names.ts';
import { formatClock } from '@/lib/format-date.ts';
import { asApiError } from '@/lib/store/api.ts';
import { useSnoozeAlertsMutation } from '../api/act-on-alert.ts';
import { useAlertAction } from '../hooks/use-alert-action.ts';

/** Alerts a person resolves by hand; vital and offline alerts resolve when their episode ends. */
const resolvedByHand = (alertType: string) =>
  alertType !== 'DEVICE_OFFLINE' && !(VITAL_ALARM_TYPES as readonly string[]).includes(alertType);

/** "Acknowledged by ann 2 minutes ago", "Resolved by bob", "Resolved: back in range". */
export function lifecycleText(alert: AlertRecord, now: Date): string | null {
  if (alert.resolved) {
    if (alert.resolved.by)
      return `Handled by ${alert.resolved.by} ${relativeTime(alert.resolved.at, now).toLowerCase()}`;
    return alert.alertType === 'DEVICE_OFFLINE' ? 'Resolved: device back online' : 'Resolved: back in range';
  }
  if (alert.acknowledged) {
    return `Acknowledged by ${alert.acknowledged.by ?? 'someone'} ${relativeTime(alert.acknowledged.at, now).toLowerCase()}`;
  }
  return null;
}

/**
 * Acknowledge ("I'm on it") while active, at once or, given `onAddNote`, with a note; mark handled (FALL, SOS, other device events) until
 * resolved; snooze for me (never FALL or SOS).
 */
export function AlertActions({ alert, onAddNote }: { alert: AlertRecord; onAddNote?: () => void }) {
  const { busy, act } = useAlertAction();
  const nameOf = useDeviceNameOf();
  const canAcknowledge = alert.status === 'active';
  const canResolve = alert.status !== 'resolved' && resolvedByHand(alert.alertType);
  // A snooze never holds back high priority, so it is not offered on a high-priority alert.
  const canSnooze = !URGENT_ALERT_TYPES.includes(alert.alertType) && alert.priority !== 'high';
  if (!canAcknowledge && !canResolve && !canSnooze) return null;
  return (
    <span className="flex flex-wrap gap-2">
      {canSnooze && <SnoozeControl alert={alert} />}
      {canAcknowledge && (
        <Button
          size="sm"
          variant={alert.priority === 'high' ? 'danger' : 'primary'}
          disabled={busy !== null}
          aria-label={`Acknowledge: ${alert.alertTitle} on ${nameOf(alert)}`}
          onClick={() => void act('acknowledge', alert)}
        >
          {busy === 'acknowledge' && <Spinner className="size-4" />}
          Acknowledge
        </Button>
      )}
      {canAcknowledge && onAddNote && (
        <Button
          size="sm"
          variant="secondary"
          disabled={busy !== null}
          aria-label={`Acknowledge with note: ${alert.alertTitle} on ${nameOf(alert)}`}
          onClick={onAddNote}
        >
          With note…
        </Button>
      )}
      {canResolve && (
        <Button
          size="sm"
          variant="secondary"
          disabled={busy !== null}
          aria-label={`Mark handled: ${alert.alertTitle} on ${nameOf(alert)}`}
          onClick={() => void act('resolve', alert)}
        >
          {busy === 'resolve' && <Spinner className="size-4" />}
          Mark handled
        </Button>
      )}
    </span>
  );
}

/**
 * "Snooze for me": no push or e-mail of this device's alerts of this type to this carer for a
 * while (others still get them; high priority always comes through). Never offered for FALL or SOS.
 */
function SnoozeControl({ alert }: { alert: AlertRecord }) {
  const [until, setUntil] = useState<string | null>(null);
  const nameOf = useDeviceNameOf();
  const [snoozeAlerts, { isLoading: busy }] = useSnoozeAlertsMutation();
  const snooze = async (minutes: SnoozeInput['minutes']) => {
    try {
      const record = await snoozeAlerts({
        deviceId: alert.device,
        alertType: alert.alertType,
        minutes,
      }).unwrap();
      setUntil(record.until);
      toast.success(
        `${alertTypeLabel(alert.alertType)} alerts from ${nameOf(alert)} snoozed for you until ${formatClock(record.until)}`,
      );
    } catch (error) {
      toast.error(errorMessage(asApiError(error), 'Failed to snooze alerts'));
    }
  };
  return (
    <select
      aria-label={`Snooze ${alertTypeLabel(alert.alertType)} alerts from ${nameOf(alert)} for me`}
      disabled={busy}
      value=""
      onChange={(e) => {
        const minutes = SNOOZE_MINUTES.find((m) => String(m) === e.target.value);
        if (minutes !== undefined) void snooze(minutes);
      }}
      className="rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm font-semibold text-slate-800 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      <option value="">{until ? `Snoozed until ${formatClock(until)}` : 'Snooze for me…'}</option>
      {SNOOZE_MINUTES.map((m) => (
        <option key={m} value={m}>
          {m < 60 ? `${m} minutes` : `${m / 60} ${m === 60 ? 'hour' : 'hours'}`}
        </option>
      ))}
    </select>
  );
}
