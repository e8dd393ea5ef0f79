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
      const error = asApiError(caught);
      if (notRecorded(error)) {
        const retry = () => markRead(alert);
        toastNotRecorded({
          id: `not-recorded-read-${alert._id}`,
          failed: ERRORS.markReadFailed,
          error,
          retry,
        });
      } else {
        toast.error(errorMessage(error, ERRORS.markReadFailed, ERRORS.unexpected));
      }
      return false;
    }
  };
  return markRead;
}
