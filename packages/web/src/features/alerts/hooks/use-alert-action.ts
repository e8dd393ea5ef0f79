import { type AlertRecord, ERRORS } from '@vitalwatch/shared';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { errorMessage } from '@/lib/api-error.ts';
import { asApiError } from '@/lib/store/api.ts';
import { type AlertAction, useActOnAlertMutation } from '../api/alert-actions.ts';
import { useMarkAlertsReadMutation } from '../api/mark-alerts-read.ts';

const FAILED: Record<AlertAction, string> = {
  acknowledge: ERRORS.acknowledgeFailed,
  resolve: ERRORS.resolveFailed,
};

/**
 * Acknowledge or resolve one alert; the new state reaches every list in the store from the answer.
 * Whoever acknowledges or handles an alert has read it: it no longer counts as unread for them.
 */
export function useAlertAction() {
  const [busy, setBusy] = useState<AlertAction | null>(null);
  const [actOnAlert] = useActOnAlertMutation();
  const [markAlertsRead] = useMarkAlertsReadMutation();
  const act = async (action: AlertAction, alert: Pick<AlertRecord, '_id' | 'isRead'>) => {
    if (busy) return;
    setBusy(action);
    try {
      await actOnAlert({ action, alertId: alert._id }).unwrap();
    } catch (error) {
      toast.error(errorMessage(asApiError(error), FAILED[action], ERRORS.unexpected));
      return;
    } finally {
      setBusy(null);
    }
    if (!alert.isRead) {
      await markAlertsRead([alert._id])
        .unwrap()
        .catch((error: unknown) => console.warn('Could not mark the handled alert read', error));
    }
  };
  return { busy, act };
}
