import { type AlertRecord, ERRORS } from '@vitalwatch/shared';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { toastNotRecorded } from '@/components/not-recorded-toast.tsx';
import { errorMessage, notRecorded } from '@/lib/api-error.ts';
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
 * One that did not reach the server (or that it failed to store) says "Not recorded", with a retry.
 * Resolves whether it was recorded.
 */
export function useAlertAction() {
  const [busy, setBusy] = useState<AlertAction | null>(null);
  const [actOnAlert] = useActOnAlertMutation();
  const [markAlertsRead] = useMarkAlertsReadMutation();
  const act = async (action: AlertAction, alert: Pick<AlertRecord, '_id' | 'isRead'>): Promise<boolean> => {
    if (busy) return false;
    setBusy(action);
    try {
      await actOnAlert({ action, alertId: alert._id }).unwrap();
    } catch (caught) {
      const error = asApiError(caught);
      if (notRecorded(error)) {
        const retry = () => act(action, alert);
        toastNotRecorded({ id: `not-recorded-${action}-${alert._id}`, failed: FAILED[action], error, retry });
      } else {
        toast.error(errorMessage(error, FAILED[action], ERRORS.unexpected));
      }
      return false;
    } finally {
      setBusy(null);
    }
    if (!alert.isRead) {
      await markAlertsRead([alert._id])
        .unwrap()
        .catch((error: unknown) => console.warn('Could not mark the handled alert read', error));
    }
    return true;
  };
  return { busy, act };
}
