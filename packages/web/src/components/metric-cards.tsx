import {
  type HealthRecord,
  isDeviceOnline,
  OUTAGE_MESSAGES,
  relativeTime,
  TEMPERATURE_SYMBOLS,
  type TemperatureUnit,
  temperatureIn,
} from '@vitalwatch/shared';
import { useMemo } from 'react';
import { formatAge, formatClockSeconds } from '@/lib/format-date.ts';
import { BatteryIcon, DropletIcon, HeartPulseIcon, ThermometerIcon } from './icons.tsx';
import { MetricCard, type MetricDefinition } from './metric-card.tsx';
import { LoadingRegion, Skeleton } from './status-panels.tsx';

/** The four cards of the overview, in the spec's order. */
export const METRICS: readonly MetricDefinition[] = [
  {
    vital: 'spo2',
    label: 'SpO2',
    unit: '%',
    abnormalText: 'Abnormal',
    icon: <DropletIcon className="size-4" />,
  },
  {
    vital: 'heartRate',
    label: 'Heart Rate',
    unit: 'BPM',
    abnormalText: 'Abnormal',
    icon: <HeartPulseIcon className="size-4" />,
  },
  {
    vital: 'temperature',
    label: 'Temperature',
    unit: '°F',
    abnormalText: 'Abnormal',
    icon: <ThermometerIcon className="size-4" />,
  },
  {
    vital: 'battery',
    label: 'Battery',
    unit: '%',
    abnormalText: 'Low Battery',
    icon: <BatteryIcon className="size-4" />,
  },
];

const GRID = 'grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4';

/** The cards with the temperature in the user's unit (the spec's °F unless they chose °C). */
export const metricsIn = (unit: TemperatureUnit): readonly MetricDefinition[] =>
  unit === 'F'
    ? METRICS
    : METRICS.map((m) =>
        m.vital === 'temperature'
          ? { ...m, unit: TEMPERATURE_SYMBOLS[unit], shown: (f: number) => temperatureIn(f, unit) }
          : m,
      );

const NOTICE =
  'rounded-xl border px-4 py-3 text-sm font-medium border-slate-300 bg-slate-100 text-slate-800 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-100';

/**
 * The newest record's four vitals. A record older than the online threshold is stale: the cards
 * say so instead of showing a reassuring green "Normal" for values nobody knows are still true.
 * So does every record while live data has stopped (`live` false): newer ones may not be arriving.
 */
export function MetricCards({
  record,
  now,
  unit = 'F',
  live = true,
}: {
  record: HealthRecord;
  now: Date;
  /** The user's temperature unit. */
  unit?: TemperatureUnit;
  /** Live data is arriving (the socket is up). */
  live?: boolean;
}) {
  const stale = !isDeviceOnline(record.createdAt, now);
  const metrics = useMemo(() => metricsIn(unit), [unit]);
  return (
    <div className="space-y-3">
      {!live && (
        <p data-testid="not-live-notice" className={NOTICE}>
          {OUTAGE_MESSAGES.readingAge(formatClockSeconds(record.createdAt), formatAge(record.createdAt, now))}
        </p>
      )}
      {live && stale && (
        <p role="status" data-testid="stale-notice" className={NOTICE}>
          No reading for {relativeTime(record.createdAt, now).replace(' ago', '')}: these values may no longer
          be true. Check that the device is worn, charged and connected.
        </p>
      )}
      <div className={GRID}>
        {metrics.map((metric) => (
          <MetricCard
            key={metric.vital}
            metric={metric}
            value={record[metric.vital]}
            stale={stale || !live}
            staleLabel={live ? 'Stale' : 'Not live'}
          />
        ))}
      </div>
    </div>
  );
}

export function MetricCardsSkeleton() {
  return (
    <LoadingRegion label="Loading health data">
      <div className={GRID}>
        {METRICS.map((m) => (
          // As tall as a MetricCard (188 px on a phone, 172 px from `sm`): nothing moves when the values arrive.
          <div
            key={m.vital}
            className="min-h-47 space-y-4 rounded-2xl border border-slate-200 bg-white p-4 sm:min-h-43 sm:p-5 dark:border-slate-800 dark:bg-slate-900"
          >
            <Skeleton className="h-4 w-1/2" />
            <Skeleton className="h-8 w-2/3" />
            <Skeleton className="h-2 w-full" />
          </div>
        ))}
      </div>
    </LoadingRegion>
  );
}
