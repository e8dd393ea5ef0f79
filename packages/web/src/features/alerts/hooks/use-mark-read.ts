import { type AlertRecord, ERRORS } from '@vitalwatch/shared';
import { toast } from 'react-toastify';
import { errorMessage } from '@/lib/api-error.ts';
import { asApiError } from '@/lib/store/api.ts';
import { useMarkAlertsReadMutation } from '../api/mark-alerts-read.ts';

/**
 * Spec 4: an unread alert becomes read on click, in every list that shows it, once the server
 * agrees; a failure is toasted and the alert stays unread.
 */
export function useMarkRead() {
  const [markAlertsRead] = useMarkAlertsReadMutation();
  return async (alert: AlertRecord) => {
    if (alert.isRead) return;
    try {
      await markAlertsRead([alert._id]).unwrap();
    } catch (error) {
      toast.error(errorMessage(asApiError(error), ERRORS.markReadFailed, ERRORS.unexpected));
    }
  };
}
