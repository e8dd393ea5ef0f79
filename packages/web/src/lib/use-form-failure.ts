import { useCallback, useState } from 'react';
import { toast } from 'react-toastify';
import type { ApiError } from './api-error.ts';
import { errorMessage } from './api-error.ts';
import { asApiError } from './store/api.ts';

export interface AttemptOptions {
  /** What to say when the server's answer has no message for the user (the message catalogue's). */
  fallback: string;
  /** Puts the server's per-field issues under their inputs (`applyServerIssues`). */
  showIssues?: (error: ApiError) => void;
  /** Also as a toast, for a failure the user may not see under the form. Default true. */
  toast?: boolean;
}

/**
 * The failure state a modal form repeats: `attempt(work, options)` clears the last failure, marks
 * the form busy, runs `work`, and on a failure shows its message under the form (`failure`),
 * its field issues under the inputs and, unless told not to, a toast. Resolves whether it worked.
 */
export function useFormFailure() {
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const attempt = useCallback(async (work: () => Promise<void>, options: AttemptOptions) => {
    setFailure(null);
    setBusy(true);
    try {
      await work();
      return true;
    } catch (caught) {
      const error = asApiError(caught);
      options.showIssues?.(error);
      const message = errorMessage(error, options.fallback);
      setFailure(message);
      if (options.toast ?? true) toast.error(message);
      return false;
    } finally {
      setBusy(false);
    }
  }, []);

  const clearFailure = useCallback(() => setFailure(null), []);
  return { failure, busy, attempt, clearFailure };
}
