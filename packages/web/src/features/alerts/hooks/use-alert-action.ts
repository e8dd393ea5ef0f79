import { type AlertLifecycle, ERRORS } from '@vitalwatch/shared';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { errorMessage } from '@/lib/api-error.ts';
import { type AlertAction, actOnAlert } from '../api/alert-actions.ts';

const FAILED: Record<AlertAction, string> = {
  acknowledge: ERRORS.acknowledgeFailed,
  resolve: ERRORS.resolveFailed,
};

/**
 * Acknowledge or resolve one alert. The new state is applied at once from the answer (`onDone`);
 * everyone else assigned hears of it over the socket.
 */
export function useAlertAction(onDone: (alert: AlertLifecycle) => void) {
  const [busy, setBusy] = useState<AlertAction | null>(null);
  const act = async (action: AlertAction, alertId: string) => {
    if (busy) return;
    setBusy(action);
    try {
      onDone(await actOnAlert(action, alertId));
    } catch (error) {
      toast.error(errorMessage(error, FAILED[action], ERRORS.unexpected));
    } finally {
      setBusy(null);
    }
  };
  return { busy, act };
}
