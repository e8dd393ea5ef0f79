import { type AlertRecord, ERRORS } from '@vitalwatch/shared';
import { toast } from 'react-toastify';
import { toastNotRecorded } from '@/components/not-recorded-toast.tsx';
import { errorMessage, notRecorded } from '@/lib/api-error.ts';
import { asApiError } from '@/lib/store/api.ts';
import { useMarkAlertsReadMutation } from '../api/mark-alerts-read.ts';

/**
 * Spec 4: an unread alert becomes read on click, in every list that shows it, once the server
 * agrees; a failure is toasted and the alert stays unread ("Not recorded", with a retry, when the
 * request never reached the server or the server failed).
 */
export function useMarkRead() {
  const [markAlertsRead] = useMarkAlertsReadMutation();
  const markRead = async (alert: AlertRecord): Promise<boolean> => {
    if (alert.isRead) return true;
    try {
      await markAlertsRead([alert._id]).unwrap();
      return true;
    } catch (caught) {
      toastMarkReadFailed(caught, `not-recorded-read-${alert._id}`, () => markRead(alert));
      return false;
    }
  };
  return markRead;
}

/**
 * A mark-read request failed: "Not recorded", with `retry`, when it never reached the server or
 * the server failed (toast `id`, so a second failure replaces the first); else the server's reason.
 */
export function toastMarkReadFailed(caught: unknown, id: string, retry: () => Promise<boolean>): void {
  const error = asApiError(caught);
  if (notRecorded(error)) toastNotRecorded({ id, failed: ERRORS.markReadFailed, error, retry });
  else toast.error(errorMessage(error, ERRORS.markReadFailed, ERRORS.unexpected));
}
