import { isDeviceOnline, RELATIVE_TIME_REFRESH_MS, relativeTime, type UserDevice } from '@vitalwatch/shared';
import { memo, type ReactNode, useState } from 'react';
import { Button } from '@/components/button.tsx';
import { AlertTriangleIcon, HeartPulseIcon } from '@/components/icons.tsx';
import { MetricCards, MetricCardsSkeleton } from '@/components/metric-cards.tsx';
import { RecentAlertsCard } from '@/features/alerts/components/recent-alerts-card.tsx';
import { ConnectionCard } from '@/features/health/components/connection-card.tsx';
import { HealthTrends } from '@/features/health/components/health-trends.tsx';
import { type HealthFailure, useHealthData } from '@/features/health/hooks/use-health-data.ts';
import { useOpeningRange } from '@/features/health/hooks/use-opening-range.ts';
import type { HealthRangeId } from '@/features/health/utils/records.ts';
import { formatAge, formatClockSeconds } from '@/lib/format-date.ts';
import { useRealtimeDownSince } from '@/lib/socket.ts';
import { selectCurrentUser } from '@/lib/store/auth-slice.ts';
import { useAppSelector } from '@/lib/store/hooks.ts';
import { useNow } from '@/lib/use-now.ts';
import { LiveStatus } from './live-status.tsx';

// Drawn again only when their own props change: the overview re-renders each time one of its
// queries starts or ends a fetch, and on a phone drawing the whole dashboard again takes hundreds of ms.
const Cards = memo(MetricCards);
const Trends = memo(HealthTrends);
const RecentAlerts = memo(RecentAlertsCard);
const Connection = memo(ConnectionCard);

const newest = (a: string | null, b: string | null) => {
  if (!a || !b) return a ?? b;
  return Date.parse(a) >= Date.parse(b) ? a : b;
};

/**
 * No record to show. When the device has sent nothing, the spec's texts point at the device; when
 * the load failed, what failed (the server unreachable, or its error) replaces that hint: the
 * device is not to blame for a server that did not answer.
 */
function NoHealthData({ failure, onRetry }: { failure: HealthFailure | null; onRetry: () => void }) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center dark:border-slate-700 dark:bg-slate-900">
      <HeartPulseIcon className="size-10 text-slate-400 dark:text-slate-500" />
      <p className="text-lg font-semibold text-slate-900 dark:text-white">No health data available.</p>
      {failure ? (
        <div role="alert" className="mt-2 flex flex-col items-center gap-2">
          <p className="flex items-center gap-1.5 text-sm font-semibold text-red-700 dark:text-red-300">
            <AlertTriangleIcon className="size-4 shrink-0" /> {failure.what}
          </p>
          <p className="text-sm text-red-700 dark:text-red-300">{failure.message}</p>
          <Button variant="secondary" size="sm" onClick={onRetry}>
            Try again
          </Button>
        </div>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Please ensure your device is connected and transmitting data.
        </p>
      )}
    </div>
  );
}

/** 'Updated': the spec's relative wording while live; while not, the reading's time and exact age. */
function updatedText(updatedAt: string | null, now: Date, live: boolean): string {
  if (live || !updatedAt) return relativeTime(updatedAt, now);
  return `${formatClockSeconds(updatedAt)} (${formatAge(updatedAt, now)} ago)`;
}

/**
 * The chosen device: 'Updated', the four vitals, Health Trends, Recent Alerts and the connection.
 * `afterCards` goes right under the vitals.
 */
export function DeviceOverview({ device, afterCards }: { device: UserDevice; afterCards?: ReactNode }) {
  // The chart opens on the range that shows the device's readings, until the user picks one.
  const opening = useOpeningRange(device._id, device.lastUpdate);
  const [chosen, setChosen] = useState<HealthRangeId | null>(null);
  const range = chosen ?? opening;
  const health = useHealthData(device._id);
  const live = useRealtimeDownSince() === null;
  // Not live: ages count by the second, so nobody reads a frozen 'Just now'.
  const now = useNow(live ? RELATIVE_TIME_REFRESH_MS : 1000);
  const user = useAppSelector(selectCurrentUser);
  const updatedAt = health.latest?.createdAt ?? null;
  const lastUpdate = newest(device.lastUpdate, updatedAt);
  // Health Trends is laid out (and its history fetched) while the newest reading loads: the cards
  // below it do not jump when it arrives. Only a device that never sent anything goes without.
  const withTrends = health.loading || health.latest !== null;

  return (
    <div className="space-y-6 compact:space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600 dark:text-slate-400">
        <p>
          Updated:{' '}
          <time
            data-testid="updated"
            dateTime={updatedAt ?? undefined}
            className="font-semibold text-slate-900 dark:text-white"
          >
            {health.loading ? '…' : updatedText(updatedAt, now, live)}
          </time>
        </p>
        <LiveStatus fresh={health.loading || isDeviceOnline(lastUpdate, now)} />
      </div>
      {health.loading ? (
        <MetricCardsSkeleton />
      ) : health.latest ? (
        <Cards record={health.latest} now={now} unit={user?.temperatureUnit} live={live} />
      ) : (
        <NoHealthData failure={health.failure} onRetry={health.retry} />
      )}
      {afterCards}
      <div className="grid gap-6 lg:grid-cols-3">
        {withTrends && (
          <div className="min-w-0 lg:col-span-2">
            <Trends deviceId={device._id} range={range} onRangeChange={setChosen} />
          </div>
        )}
        {/* Same place in the tree with or without the chart, so the cards keep their state. */}
        <div className={withTrends ? 'space-y-6' : 'grid items-start gap-6 lg:col-span-3 lg:grid-cols-2'}>
          <RecentAlerts />
          <Connection lastUpdate={lastUpdate} now={now} />
        </div>
      </div>
    </div>
  );
}
