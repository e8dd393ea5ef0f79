import { relativeTime, type WebhookDelivery, webhookGaveUp } from '@vitalwatch/shared';
import { useCallback, useEffect, useState } from 'react';
import { toast } from 'react-toastify';
import { Button } from '@/components/button.tsx';
import { ErrorState, LoadingRegion, Skeleton } from '@/components/status-panels.tsx';
import { errorMessage } from '@/lib/api-error.ts';

const LOAD_FAILED = 'Failed to fetch the delivery log';

/** One try in words: arrived, not arrived (tried again later), or given up (a dead letter). */
function outcome(d: WebhookDelivery): string {
  const answer = d.status === null ? 'no answer' : String(d.status);
  if (d.ok) return `Arrived (${answer})`;
  return webhookGaveUp(d) ? `Gave up (${answer}): dead letter` : `Did not arrive (${answer}), tried again`;
}

interface DeliveryLogProps {
  webhookId: string;
  webhookUrl: string;
  /** A webhook's newest tries, newest first. */
  log: (webhookId: string) => Promise<WebhookDelivery[]>;
  /** Queue a logged message again (same id and body, signed anew). */
  replay: (webhookId: string, deliveryId: string) => Promise<void>;
}

/** A webhook's last tries with the receiver's answers, each with Replay. */
export function WebhookDeliveryLog({ webhookId, webhookUrl, log, replay }: DeliveryLogProps) {
  const [tries, setTries] = useState<WebhookDelivery[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const fetchLog = useCallback(() => {
    setFailure(null);
    log(webhookId).then(setTries, (error: unknown) => setFailure(errorMessage(error, LOAD_FAILED)));
  }, [log, webhookId]);
  useEffect(fetchLog, [fetchLog]);

  const again = async (id: string) => {
    setBusy(id);
    try {
      await replay(webhookId, id);
      toast.success('Delivery queued again');
      fetchLog();
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to replay the delivery'));
    } finally {
      setBusy(null);
    }
  };

  if (failure) return <ErrorState title={LOAD_FAILED} message={failure} onRetry={fetchLog} />;
  if (tries === null)
    return (
      <LoadingRegion label="Loading the delivery log">
        <Skeleton className="h-10 w-full" />
      </LoadingRegion>
    );
  if (tries.length === 0)
    return <p className="text-xs text-slate-600 dark:text-slate-400">Nothing sent to this webhook yet.</p>;
  return (
    <ul aria-label={`Delivery log of ${webhookUrl}`} className="mt-2 space-y-2 text-xs">
      {tries.map((d) => (
        <li
          key={d._id}
          className="flex flex-wrap items-start justify-between gap-2 rounded-lg bg-slate-50 p-2 dark:bg-slate-900"
        >
          <div className="min-w-0">
            <p
              className={`font-medium ${d.ok ? 'text-emerald-800 dark:text-emerald-300' : 'text-red-800 dark:text-red-300'}`}
            >
              {outcome(d)}
            </p>
            <p className="text-slate-600 dark:text-slate-400">
              {relativeTime(d.at)} · try {d.attempt} · message {d.messageId.slice(0, 8)}
            </p>
            {d.response && (
              <p className="break-all font-mono text-slate-700 dark:text-slate-300">{d.response}</p>
            )}
          </div>
          <Button
            size="sm"
            variant="secondary"
            aria-label={`Replay delivery ${d._id}`}
            disabled={busy === d._id}
            onClick={() => void again(d._id)}
          >
            Replay
          </Button>
        </li>
      ))}
    </ul>
  );
}
