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

/** Done, or refused: with the server's word on the note when it was the note it refused. */
export type ActOutcome = { ok: true } | { ok: false; noteIssue: string | null };

/**
 * Acknowledge or resolve one alert, with an optional note; the new state reaches every list in the
 * store from the answer. Whoever acknowledges or handles an alert has read it: it no longer counts
 * as unread for them. A refused note is answered to the caller (shown under its field), any other
 * failure toasted.
 */
export function useAlertAction() {
  const [busy, setBusy] = useState<AlertAction | null>(null);
  const [actOnAlert] = useActOnAlertMutation();
  const [markAlertsRead] = useMarkAlertsReadMutation();
  const act = async (
    action: AlertAction,
    alert: Pick<AlertRecord, '_id' | 'isRead'>,
    note?: string,
  ): Promise<ActOutcome> => {
    if (busy) return { ok: false, noteIssue: null };
    setBusy(action);
    try {
      await actOnAlert({ action, alertId: alert._id, note }).unwrap();
    } catch (error) {
      const apiError = asApiError(error);
      const noteIssue = apiError.issues.find((i) => i.path === 'note' || i.path.endsWith('.note'));
      if (noteIssue) return { ok: false, noteIssue: noteIssue.message };
      toast.error(errorMessage(apiError, FAILED[action], ERRORS.unexpected));
      return { ok: false, noteIssue: null };
    } finally {
      setBusy(null);
    }
    if (!alert.isRead) {
      await markAlertsRead([alert._id])
        .unwrap()
        .catch((error: unknown) => console.warn('Could not mark the handled alert read', error));
    }
    return { ok: true };
  };
  return { busy, act };
}
