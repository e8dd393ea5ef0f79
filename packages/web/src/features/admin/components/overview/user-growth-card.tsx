import { ADMIN_ERRORS, type UserGrowthEntry } from '@vitalwatch/shared';
import { lazy, Suspense, useState } from 'react';
import { Card } from '@/components/card.tsx';
import { ErrorBoundary } from '@/components/error-boundary.tsx';
import { ErrorState, LoadingRegion, Skeleton } from '@/components/status-panels.tsx';
import { useAppSelector } from '@/lib/store/hooks.ts';
import type { QueryView } from '@/lib/store/query-view.ts';
import { selectPageTheme } from '@/lib/store/theme-slice.ts';
import { growthSummary } from '../../utils/user-growth.ts';
import { RefreshFailed } from './refresh-failed.tsx';

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-xl bg-slate-50 px-4 py-3 dark:bg-slate-800/60">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">
        {label}
      </dt>
      <dd className="text-xl font-bold text-slate-900 tabular-nums dark:text-white">{value}</dd>
    </div>
  );
}

/**
 * Chart.js loads with the overview's chart, not with the admin's area: Device Management, Users and
 * the rest share the area's chunk and draw no chart (a fresh Device Management page evaluated
 * Chart.js before its first row). A lazy component keeps a failed load for good, so trying again
 * takes a new one.
 */
const CHART_LOAD_FAILED = 'Check your connection. The totals above are up to date.';
const lazyChart = () => lazy(() => import('./growth-chart.tsx').then((m) => ({ default: m.GrowthChart })));

interface UserGrowthCardProps {
  state: QueryView<UserGrowthEntry[]>;
  onRetry: () => void;
  className?: string;
}

/** 'User Growth' over the last 7 days: the bars, the total and the daily average. */
export function UserGrowthCard({ state, onRetry, className }: UserGrowthCardProps) {
  const theme = useAppSelector(selectPageTheme);
  const [GrowthChart, setGrowthChart] = useState(lazyChart);
  return (
    <Card title="User Growth" description="Last 7 Days" className={className}>
      {state.status === 'loading' && (
        <LoadingRegion label="Loading user growth">
          <div className="mb-4 grid grid-cols-2 gap-3">
            <Skeleton className="h-16" />
            <Skeleton className="h-16" />
          </div>
          <Skeleton className="h-64" />
        </LoadingRegion>
      )}
      {state.status === 'error' && (
        <ErrorState title={ADMIN_ERRORS.userGrowthFetchFailed} message={state.message} onRetry={onRetry} />
      )}
      {state.status === 'ready' && (
        <>
          <dl className="mb-4 grid grid-cols-2 gap-3">
            <Figure label="Total new users" value={String(growthSummary(state.data).total)} />
            <Figure label="Average daily" value={growthSummary(state.data).averageDaily.toFixed(1)} />
          </dl>
          <ErrorBoundary
            onRetry={() => setGrowthChart(lazyChart)}
            fallback={(retry) => (
              <ErrorState title="Could not load the chart" message={CHART_LOAD_FAILED} onRetry={retry} />
            )}
          >
            <Suspense fallback={<Skeleton className="h-64" />}>
              <GrowthChart entries={state.data} theme={theme} />
            </Suspense>
          </ErrorBoundary>
          <RefreshFailed message={state.refreshError} />
        </>
      )}
    </Card>
  );
}
