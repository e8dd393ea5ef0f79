import { alertTypeLabel, type SnoozeRecord } from '@vitalwatch/shared';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { Button } from '@/components/button.tsx';
import { Card } from '@/components/card.tsx';
import { ErrorState, LoadingRegion, Skeleton } from '@/components/status-panels.tsx';
import { errorMessage } from '@/lib/api-error.ts';
import { formatClock } from '@/lib/format-date.ts';
import { asApiError } from '@/lib/store/api.ts';
import { queryView } from '@/lib/store/query-view.ts';
import { useEndSnoozeMutation, useSnoozesQuery } from '../api/snoozes.ts';

const LOAD_FAILED = 'Failed to fetch snoozed alerts';

/** The alert types this user snoozed (for themselves only), each with when it ends and 'End now'. */
export function SnoozesSection() {
  const snoozes = useSnoozesQuery();
  const state = queryView(snoozes, LOAD_FAILED);
  const [endSnooze] = useEndSnoozeMutation();
  const [ending, setEnding] = useState<string | null>(null);

  const end = async (s: SnoozeRecord) => {
    setEnding(`${s.device}/${s.alertType}`);
    try {
      await endSnooze(s).unwrap();
      toast.success('Snooze ended');
    } catch (error) {
      toast.error(errorMessage(asApiError(error), 'Failed to end the snooze'));
    } finally {
      setEnding(null);
    }
  };

  return (
    <Card
      id="snoozes-title"
      title="Snoozed Alerts"
      description="Alert types you silenced for yourself for a while. Everyone else still gets them, and falls, SOS and critical values always come through."
    >
      {state.status === 'loading' && (
        <LoadingRegion label="Loading snoozed alerts">
          <Skeleton className="h-10 w-full" />
        </LoadingRegion>
      )}
      {state.status === 'error' && (
        <ErrorState title={LOAD_FAILED} message={state.message} onRetry={() => void snoozes.refetch()} />
      )}
      {state.status === 'ready' && state.data.length === 0 && (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Nothing snoozed: every alert reaches you.
        </p>
      )}
      {state.status === 'ready' && state.data.length > 0 && (
        <ul className="divide-y divide-slate-100 dark:divide-slate-800">
          {state.data.map((s) => (
            <li
              key={`${s.device}/${s.alertType}`}
              className="flex flex-wrap items-center justify-between gap-2 py-2"
            >
              <span className="text-sm text-slate-800 dark:text-slate-100">
                {alertTypeLabel(s.alertType)} · {s.deviceName} · until {formatClock(s.until)}
              </span>
              <Button
                variant="secondary"
                size="sm"
                disabled={ending !== null}
                aria-label={`End snooze of ${alertTypeLabel(s.alertType)} on ${s.deviceName}`}
                onClick={() => void end(s)}
              >
                End now
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
