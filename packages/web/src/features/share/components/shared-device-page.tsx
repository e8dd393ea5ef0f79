import {
  contracts,
  relativeTime,
  SHARE_HISTORY_HOURS,
  SHARE_MESSAGES,
  SHARE_REPORT_DAYS,
  type SharedDevice,
  type SharedHistory,
} from '@vitalwatch/shared';
import { useState } from 'react';
import { useParams } from 'react-router';
import { toast } from 'react-toastify';
import { Button } from '@/components/button.tsx';
import { HeartPulseIcon } from '@/components/icons.tsx';
import { MetricCards } from '@/components/metric-cards.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { EmptyState, ErrorState, LoadingRegion, Skeleton } from '@/components/status-panels.tsx';
import { errorMessage } from '@/lib/api-error.ts';
import { downloadContract } from '@/lib/call-contract.ts';
import { formatDateTime } from '@/lib/format-date.ts';
import { saveDownload } from '@/lib/save-download.ts';
import { asApiError } from '@/lib/store/api.ts';
import { useNow } from '@/lib/use-now.ts';
import { useSharedDeviceQuery } from '../api/get-shared-device.ts';
import { useSharedHistoryQuery } from '../api/get-shared-history.ts';

type State =
  | { status: 'loading' }
  | { status: 'gone' }
  | { status: 'invalid' }
  | { status: 'error'; message: string }
  | { status: 'ready'; device: SharedDevice; day: SharedHistory };

/** The last 24 hours, ending now: all of its history a link serves. */
const lastDay = () => {
  const to = new Date();
  return {
    from: new Date(to.getTime() - SHARE_HISTORY_HOURS * 3_600_000).toISOString(),
    to: to.toISOString(),
  };
};

/**
 * A failed load: a refused token (expired, revoked, never made) is gone; one that cannot be a
 * token (the server's 400) is not valid; anything else may pass.
 */
const failure = (error: unknown): State => {
  const e = asApiError(error);
  if (e.status === 404) return { status: 'gone' };
  if (e.status === 400) return { status: 'invalid' };
  return { status: 'error', message: errorMessage(e, 'Failed to fetch health data') };
};

const average = (stats: [number, number, number, number] | null) =>
  stats ? String(Math.round(stats[1] * 10) / 10) : '–';

/**
 * `/shared/:token`: what a share link shows someone without an account: the device's newest
 * reading, the last 24 hours' averages and its PDF report of the last 7 days. Read only; gone
 * once the link expires or is revoked.
 */
export function SharedDevicePage() {
  const { token = '' } = useParams();
  const [period, setPeriod] = useState(lastDay);
  const device = useSharedDeviceQuery(token);
  const history = useSharedHistoryQuery({ token, ...period });
  const [busy, setBusy] = useState(false);
  const now = useNow(60_000);
  const state: State =
    device.data && history.data
      ? { status: 'ready', device: device.data, day: history.data }
      : device.isError
        ? failure(device.error)
        : history.isError
          ? failure(history.error)
          : { status: 'loading' };
  const retry = () => {
    setPeriod(lastDay());
    void device.refetch();
  };

  const report = async () => {
    setBusy(true);
    try {
      const to = new Date();
      const from = new Date(to.getTime() - SHARE_REPORT_DAYS * 86_400_000);
      const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
      const query = { from: from.toISOString(), to: to.toISOString(), timeZone };
      saveDownload(await downloadContract(contracts.shared.report, { params: { token }, query }));
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to download the report'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-10 sm:px-6 lg:px-8">
      <title>Shared health data · VitalWatch</title>
      {state.status === 'loading' && (
        <LoadingRegion label="Loading shared health data">
          <Skeleton className="h-10 w-2/3" />
          <Skeleton className="mt-6 h-40 w-full" />
        </LoadingRegion>
      )}
      {state.status === 'gone' && (
        <EmptyState
          icon={<HeartPulseIcon className="size-10" />}
          title="This link has expired or was revoked"
          hint="Ask the person who shared it for a new one."
        />
      )}
      {state.status === 'invalid' && (
        <EmptyState
          icon={<HeartPulseIcon className="size-10" />}
          title={SHARE_MESSAGES.malformed}
          hint={SHARE_MESSAGES.malformedHint}
        />
      )}
      {state.status === 'error' && (
        <ErrorState title="Failed to fetch health data" message={state.message} onRetry={retry} />
      )}
      {state.status === 'ready' && (
        <>
          <PageHeader
            title={state.device.deviceName}
            subtitle={`Shared read-only until ${formatDateTime(state.device.expiresAt)}`}
            actions={
              <Button disabled={busy} onClick={() => void report()}>
                {busy ? 'Preparing...' : `PDF report, last ${SHARE_REPORT_DAYS} days`}
              </Button>
            }
          />
          {state.device.latest ? (
            <>
              <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
                Newest reading taken{' '}
                <time
                  data-testid="newest-reading"
                  dateTime={state.device.latest.createdAt}
                  className="font-semibold text-slate-900 dark:text-white"
                >
                  {formatDateTime(state.device.latest.createdAt)}
                </time>{' '}
                ({relativeTime(state.device.latest.createdAt, now)})
              </p>
              <MetricCards record={state.device.latest} now={now} />
            </>
          ) : (
            <p className="text-slate-600 dark:text-slate-400">No readings yet.</p>
          )}
          <section
            aria-labelledby="shared-day-title"
            className="mt-6 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
          >
            <h2 id="shared-day-title" className="text-lg font-semibold text-slate-900 dark:text-white">
              Last 24 hours
            </h2>
            <dl className="mt-3 grid grid-cols-2 gap-4 sm:grid-cols-4">
              {[
                ['Readings', String(state.day.summary.readings)],
                ['Avg. SpO2 (%)', average(state.day.summary.spo2)],
                ['Avg. Heart Rate (BPM)', average(state.day.summary.heartRate)],
                ['Avg. Temperature (°F)', average(state.day.summary.temperature)],
              ].map(([label, value]) => (
                <div key={label}>
                  <dt className="text-sm text-slate-600 dark:text-slate-400">{label}</dt>
                  <dd className="text-2xl font-bold text-slate-900 dark:text-white">{value}</dd>
                </div>
              ))}
            </dl>
          </section>
        </>
      )}
    </div>
  );
}
