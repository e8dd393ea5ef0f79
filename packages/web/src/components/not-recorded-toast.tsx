import { OUTAGE_MESSAGES } from '@vitalwatch/shared';
import { toast } from 'react-toastify';
import { type ApiError, failureKind } from '@/lib/api-error.ts';

interface NotRecordedOptions {
  /** One toast per action and record: a second failure replaces the first. */
  id: string;
  /** What was not done, e.g. 'Failed to acknowledge the alert'. */
  failed: string;
  error: ApiError;
  /** Send the same request again; resolves whether it was recorded this time. */
  retry: () => Promise<boolean>;
}

/** Why it was not recorded: no answer, or the server's error. */
const cause = (error: ApiError) =>
  failureKind(error) === 'unreachable'
    ? OUTAGE_MESSAGES.unreachable
    : OUTAGE_MESSAGES.serverError(error.status);

/**
 * An action whose request never reached the server (or that the server failed to store) says so
 * in words, "Not recorded", and stays until retried or closed: a carer must not believe an alert
 * was acknowledged when nobody else can see it was.
 */
export function toastNotRecorded({ id, failed, error, retry }: NotRecordedOptions): void {
  const content = (
    <div data-testid="not-recorded" className="space-y-2">
      <p>
        <strong>{OUTAGE_MESSAGES.notRecorded}:</strong> <span>{failed}</span>. {cause(error)}
      </p>
      <button
        type="button"
        onClick={() => {
          // Failing again updates this toast (same id); recorded, it goes.
          void retry().then((recorded) => recorded && toast.dismiss(id));
        }}
        className="rounded-lg border border-current px-3 py-1 text-sm font-semibold"
      >
        {OUTAGE_MESSAGES.retry}
      </button>
    </div>
  );
  if (toast.isActive(id)) toast.update(id, { render: content });
  else toast.error(content, { toastId: id, autoClose: false });
}
