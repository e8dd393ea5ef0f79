import { type AlertLifecycle, type AlertRecord, relativeTime, VITAL_ALARM_TYPES } from '@vitalwatch/shared';
import { Button } from '../../../components/button.tsx';
import { Spinner } from '../../../components/spinner.tsx';
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

interface AlertActionsProps {
  alert: AlertRecord;
  onChanged: (alert: AlertLifecycle) => void;
}

/** Acknowledge ("I'm on it") while active; mark handled (FALL, SOS, other device events) until resolved. */
export function AlertActions({ alert, onChanged }: AlertActionsProps) {
  const { busy, act } = useAlertAction(onChanged);
  const canAcknowledge = alert.status === 'active';
  const canResolve = alert.status !== 'resolved' && resolvedByHand(alert.alertType);
  if (!canAcknowledge && !canResolve) return null;
  return (
    <span className="flex flex-wrap gap-2">
      {canAcknowledge && (
        <Button
          size="sm"
          variant={alert.priority === 'high' ? 'danger' : 'primary'}
          disabled={busy !== null}
          aria-label={`Acknowledge: ${alert.alertTitle} on ${alert.deviceName}`}
          onClick={() => void act('acknowledge', alert._id)}
        >
          {busy === 'acknowledge' && <Spinner className="size-4" />}
          Acknowledge
        </Button>
      )}
      {canResolve && (
        <Button
          size="sm"
          variant="secondary"
          disabled={busy !== null}
          aria-label={`Mark handled: ${alert.alertTitle} on ${alert.deviceName}`}
          onClick={() => void act('resolve', alert._id)}
        >
          {busy === 'resolve' && <Spinner className="size-4" />}
          Mark handled
        </Button>
      )}
    </span>
  );
}
