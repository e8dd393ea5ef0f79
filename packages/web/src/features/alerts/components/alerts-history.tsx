import { ERRORS, RELATIVE_TIME_REFRESH_MS } from '@vitalwatch/shared';
import { useState } from 'react';
import { Button } from '@/components/button.tsx';
import { BellIcon } from '@/components/icons.tsx';
import { Spinner } from '@/components/spinner.tsx';
import { EmptyState, ErrorState, LoadingRegion, Skeleton } from '@/components/status-panels.tsx';
import { useNow } from '@/lib/use-now.ts';
import { useAlertsHistory } from '../hooks/use-alerts-history.ts';
import { EMPTY_RANGE, rangeQuery } from '../utils/date-range.ts';
import { AlertFilters, type AlertFilterValues, type DeviceOption, FilterChips } from './alert-filters.tsx';
import { AlertItem } from './alert-item.tsx';

/** Alerts History: filters, counts, the list with 'Load More Alerts', marking read. */
export function AlertsHistory({ devices }: { devices: readonly DeviceOption[] }) {
  const [filters, setFilters] = useState<AlertFilterValues>({ deviceId: null, range: EMPTY_RANGE });
  const [sort, setSort] = useState<'recent' | 'priority'>('recent');
  const query = {
    deviceId: filters.deviceId ?? undefined,
    ...rangeQuery(filters.range),
    ...(sort === 'priority' ? { sort } : {}),
  };
  const { state, loadingMore, markingAll, loadMore, markRead, markAllRead, retry } = useAlertsHistory(query);
  const now = useNow(RELATIVE_TIME_REFRESH_MS);
  const ready = state.status === 'ready';

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm lg:flex-row lg:items-center lg:justify-between dark:border-slate-800 dark:bg-slate-900">
        <AlertFilters devices={devices} value={filters} onChange={setFilters} />
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-sm text-slate-600 dark:text-slate-400">
            <span data-testid="unread-count" className="font-semibold text-slate-900 dark:text-white">
              {ready ? state.unreadCount : '–'}
            </span>{' '}
            unread
          </p>
          <Button
            variant="secondary"
            size="sm"
            disabled={!ready || state.unreadCount === 0 || markingAll}
            onClick={() => void markAllRead()}
          >
            {markingAll && <Spinner className="size-4" />}
            Mark all as read
          </Button>
        </div>
      </div>
      <FilterChips devices={devices} value={filters} onChange={setFilters} />
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p aria-live="polite" className="font-semibold text-slate-900 dark:text-white">
          {ready ? `${state.total} Alerts Found` : 'Loading alerts…'}
        </p>
        <p className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
          <span>Sorted by: {sort === 'recent' ? 'Most recent' : 'Priority'}</span>
          <button
            type="button"
            onClick={() => setSort((s) => (s === 'recent' ? 'priority' : 'recent'))}
            className="rounded-md px-1.5 py-0.5 font-semibold text-teal-800 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-teal-600 dark:text-teal-300"
          >
            {sort === 'recent' ? 'Sort by priority' : 'Sort by most recent'}
          </button>
        </p>
      </div>
      {state.status === 'loading' && (
        <LoadingRegion label="Loading alerts">
          <div className="space-y-3">
            {['a', 'b', 'c', 'd'].map((k) => (
              <Skeleton key={k} className="h-20 w-full" />
            ))}
          </div>
        </LoadingRegion>
      )}
      {state.status === 'error' && (
        <ErrorState title={ERRORS.alertsFetchFailed} message={state.error ?? undefined} onRetry={retry} />
      )}
      {ready && state.alerts.length === 0 && (
        <EmptyState
          icon={<BellIcon className="size-10" />}
          title="No alerts found"
          hint="Try adjusting your filters to see more results."
        />
      )}
      {ready && state.alerts.length > 0 && (
        <>
          <ul data-testid="alerts-list" className="space-y-3">
            {state.alerts.map((alert) => (
              <li key={alert._id}>
                <AlertItem alert={alert} now={now} onMarkRead={(a) => void markRead(a)} />
              </li>
            ))}
          </ul>
          <div className="flex justify-center pt-2">
            {state.nextCursor ? (
              <Button variant="secondary" disabled={loadingMore} onClick={() => void loadMore()}>
                {loadingMore && <Spinner className="size-4" />}
                Load More Alerts
              </Button>
            ) : (
              <p className="text-sm text-slate-500 dark:text-slate-400">You've reached the end</p>
            )}
          </div>
        </>
      )}
    </div>
  );
}
