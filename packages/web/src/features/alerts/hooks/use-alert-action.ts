import { type AlertRecord, ERRORS } from '@vitalwatch/shared';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { toastNotRecorded } from '@/components/not-recorded-toast.tsx';
import { errorMessage, notRecorded } from '@/lib/api-error.ts';
import { asApiError } from '@/lib/store/api.ts';
import { type AlertAction, useActOnAlertMutation } from '../api/act-on-alert.ts';
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
 * as unread for them. A refused note is answered to the caller (shown under its field); an action
 * that did not reach the server (or that it failed to store) says "Not recorded", with a retry;
 * any other failure is toasted.
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
    } catch (caught) {
      const error = asApiError(caught);
      const noteIssue = error.issues.find((i) => i.path === 'note' || i.path.endsWith('.note'));
      if (noteIssue) return { ok: false, noteIssue: noteIssue.message };
      if (notRecorded(error)) {
        const retry = async () => (await act(action, alert, note)).ok;
        toastNotRecorded({ id: `not-recorded-${action}-${alert._id}`, failed: FAILED[action], error, retry });
      } else {
        toast.error(errorMessage(error, FAILED[action], ERRORS.unexpected));
      }
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
