import { ADMIN_ERRORS, type FleetSummary, LOW_BATTERY_PERCENT } from '@vitalwatch/shared';
import { Link } from 'react-router';
import { ErrorState, Skeleton } from '@/components/status-panels.tsx';
import { PATHS } from '@/lib/paths.ts';
import type { QueryView } from '@/lib/store/query-view.ts';

const numberFormat = new Intl.NumberFormat('en-US');
const timeFormat = new Intl.DateTimeFormat('en-US', {
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
});

/** Each count and the Device Management filter that lists its devices. */
const COUNTS = [
  { key: 'offlineOverHour', label: 'Offline over 1 hour', query: 'status=stale&sort=lastSeen&dir=asc' },
  {
    key: 'lowBattery',
    label: `Battery below ${LOW_BATTERY_PERCENT} %`,
    query: 'battery=low&sort=battery&dir=asc',
  },
  { key: 'neverReported', label: 'Never reported', query: 'status=never' },
  { key: 'unassigned', label: 'Unassigned', query: 'assignment=unassigned' },
] as const satisfies readonly { key: keyof FleetSummary; label: string; query: string }[];

interface FleetSummaryCardProps {
  state: QueryView<FleetSummary>;
  onRetry: () => void;
}

/** The overview's "needs attention" counts, each a link to the filtered device list. */
export function FleetSummaryCard({ state, onRetry }: FleetSummaryCardProps) {
  if (state.status === 'error') {
    return <ErrorState title={ADMIN_ERRORS.devicesFetchFailed} message={state.message} onRetry={onRetry} />;
  }
  return (
    <section
      aria-labelledby="fleet-summary-title"
      aria-busy={state.status === 'loading' || undefined}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-x-3">
        <h2 id="fleet-summary-title" className="text-lg font-semibold text-slate-900 dark:text-white">
          Devices needing attention
        </h2>
        {state.status === 'ready' && (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            as of <time dateTime={state.data.asOf}>{timeFormat.format(new Date(state.data.asOf))}</time>
          </p>
        )}
      </div>
      <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {COUNTS.map((c) => (
          <li key={c.key}>
            <Link
              to={`${PATHS.adminDevices}?${c.query}`}
              className="block rounded-xl border border-slate-200 p-4 hover:border-teal-500 hover:bg-teal-50 focus-visible:outline-2 focus-visible:outline-teal-600 dark:border-slate-700 dark:hover:bg-slate-800"
            >
              <span className="block text-sm font-medium text-slate-600 dark:text-slate-400">{c.label}</span>
              <div className="text-2xl font-bold text-slate-900 tabular-nums dark:text-white">
                {state.status === 'ready' ? (
                  numberFormat.format(state.data[c.key])
                ) : (
                  <Skeleton className="mt-1 h-7 w-12" />
                )}
              </div>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
