import { ERRORS } from '@vitalwatch/shared';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { errorMessage } from '@/lib/api-error.ts';
import { asApiError } from '@/lib/store/api.ts';
import { type AlertAction, useActOnAlertMutation } from '../api/alert-actions.ts';

const FAILED: Record<AlertAction, string> = {
  acknowledge: ERRORS.acknowledgeFailed,
  resolve: ERRORS.resolveFailed,
};

/** Acknowledge or resolve one alert; the new state reaches every list in the store from the answer. */
export function useAlertAction() {
  const [busy, setBusy] = useState<AlertAction | null>(null);
  const [actOnAlert] = useActOnAlertMutation();
  const act = async (action: AlertAction, alertId: string) => {
    if (busy) return;
    setBusy(action);
    try {
      await actOnAlert({ action, alertId }).unwrap();
    } catch (error) {
      toast.error(errorMessage(asApiError(error), FAILED[action], ERRORS.unexpected));
    } finally {
      setBusy(null);
    }
  };
  return { busy, act };
}
