import {
  MOBILE_BREAKPOINT_PX,
  TEMPERATURE_SYMBOLS,
  temperatureIn,
  type VitalStats,
} from '@vitalwatch/shared';
import { Fragment, lazy, Suspense, useMemo, useRef, useState } from 'react';
import { Button } from '@/components/button.tsx';
import { ErrorBoundary } from '@/components/error-boundary.tsx';
import { ErrorState, Skeleton } from '@/components/status-panels.tsx';
import { selectCurrentUser } from '@/lib/store/auth-slice.ts';
import { useAppSelector } from '@/lib/store/hooks.ts';
import { selectPageTheme } from '@/lib/store/theme-slice.ts';
import { useMediaQuery } from '@/lib/use-media-query.ts';
import { useNearViewport } from '@/lib/use-near-viewport.ts';
import { type TimeWindow, useHealthHistory } from '../hooks/use-health-history.ts';
import {
  axisRange,
  axisText,
  type ChartAxes,
  type ChartVital,
  chartBand,
  seriesExtent,
} from '../utils/chart-axes.ts';
import { seriesLabel, timeLabel, VITAL_STYLE } from '../utils/chart-config.ts';
import { gapsOf, seriesOf, tileAverage } from '../utils/history.ts';
import type { NormalBand } from '../utils/normal-bands.ts';
import { HEALTH_RANGES, type HealthRangeId } from '../utils/records.ts';
import { ChartToggle } from './chart-toggle.tsx';
import { CustomRange } from './custom-range.tsx';
import { ExportMenu } from './export-menu.tsx';
import { RangeChoice } from './range-choice.tsx';
import type { TrendsChartHandle } from './trends-chart.tsx';

/**
 * Chart.js loads after the dashboard has drawn (its cards and alerts first): it is most of the
 * dashboard's JavaScript, and a phone spends seconds evaluating it. A lazy component keeps a failed
 * load for good, so trying again takes a new one.
 */
const lazyChart = () => lazy(() => import('./trends-chart.tsx').then((m) => ({ default: m.TrendsChart })));

/** On a phone, the chart's place has to be on screen before Chart.js is loaded for it. */
const CHART_MARGIN = '0px';

interface HealthTrendsProps {
  deviceId: string;
  /** Null while the opening range is being chosen. */
  range: HealthRangeId | null;
  onRangeChange: (range: HealthRangeId) => void;
}

interface AverageTileProps {
  label: string;
  stats: VitalStats;
  /** The period's summary has arrived (until then no average is known, not none). */
  loaded: boolean;
  unit: string;
  /** Said under the 0 when the period has no reading of this vital. */
  none: string;
}

/**
 * A period's average. Readings without the vital are not in it (they have no value, not a 0); with
 * none at all it shows 0 as the spec says, and says why, so a 0 is never read as a measurement.
 */
function AverageTile({ label, stats, loaded, unit, none }: AverageTileProps) {
  return (
    <div className="rounded-xl bg-slate-50 p-4 dark:bg-slate-800/60">
      <p className="text-sm text-slate-600 dark:text-slate-400">{label}</p>
      <p className="mt-1 text-2xl font-bold text-slate-900 dark:text-white">
        {tileAverage(stats)}{' '}
        <span className="text-sm font-medium text-slate-500 dark:text-slate-400">{unit}</span>
      </p>
      {loaded && !stats && <p className="text-xs text-slate-600 dark:text-slate-400">{none}</p>}
    </div>
  );
}

const CHART_FAILED = 'Check your connection. The readings above and the averages below are up to date.';

const RESOLUTION_TEXT = { raw: 'every reading', minute: 'per minute', hour: 'per hour' } as const;

/** How the chart's accessible name says each series. */
const SPOKEN_NAME: Record<ChartVital, string> = {
  heartRate: 'heart rate',
  spo2: 'SpO2',
  temperature: 'temperature',
};

/** 'Shown per minute' for one-minute buckets, 'Every 3 minutes' or 'Every 2 hours' for wider ones. */
function resolutionText(resolution: keyof typeof RESOLUTION_TEXT, bucketSeconds: number): string {
  if (resolution === 'hour' && bucketSeconds > 3600) return `Every ${bucketSeconds / 3600} hours`;
  if (resolution === 'minute' && bucketSeconds > 60) return `Every ${bucketSeconds / 60} minutes`;
  return `Shown ${RESOLUTION_TEXT[resolution]}`;
}

/**
 * Health Trends: period choice, the chart over the whole window (average line and min–max band
 * per series, gaps where the device was silent), 'Reset Zoom', and the averages of the period.
 */
export function HealthTrends({ deviceId, range, onRangeChange }: HealthTrendsProps) {
  const theme = useAppSelector(selectPageTheme);
  const mobile = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`);
  const chart = useRef<TrendsChartHandle>(null);
  const area = useRef<HTMLDivElement>(null);
  // On a phone the chart is below the first screen: Chart.js loads and draws once it is scrolled to.
  const inView = useNearViewport(area, CHART_MARGIN) || !mobile;
  const [TrendsChart, setTrendsChart] = useState(lazyChart);
  const [custom, setCustom] = useState<TimeWindow | null>(null);
  const h = useHealthHistory(deviceId, range, custom);
  const unit = useAppSelector(selectCurrentUser)?.temperatureUnit ?? 'F';
  const symbol = TEMPERATURE_SYMBOLS[unit];
  const [withTemperature, setWithTemperature] = useState(false);
  const [clinical, setClinical] = useState(false);
  const heartRate = useMemo(() => (h.shown ? seriesOf(h.shown, 'heartRate') : null), [h.shown]);
  const spo2 = useMemo(() => (h.shown ? seriesOf(h.shown, 'spo2') : null), [h.shown]);
  const temperature = useMemo(
    () =>
      h.shown && withTemperature ? seriesOf(h.shown, 'temperature', (f) => temperatureIn(f, unit)) : null,
    [h.shown, withTemperature, unit],
  );
  const drawn = useMemo<ChartVital[]>(
    () => (withTemperature ? ['heartRate', 'spo2', 'temperature'] : ['heartRate', 'spo2']),
    [withTemperature],
  );
  // The axes follow the whole range's data (not a zoomed window's) and change only when their
  // values do: new chart options would undo the user's zoom.
  const axesKey = useMemo(() => {
    const full = h.history;
    const axis = (vital: ChartVital) => {
      const s =
        full && seriesOf(full, vital, vital === 'temperature' ? (f) => temperatureIn(f, unit) : undefined);
      return axisRange(vital, s && seriesExtent(s), clinical, unit);
    };
    return JSON.stringify({
      heartRate: axis('heartRate'),
      spo2: axis('spo2'),
      temperature: withTemperature ? axis('temperature') : null,
    });
  }, [h.history, withTemperature, clinical, unit]);
  const axes = useMemo(() => JSON.parse(axesKey) as ChartAxes, [axesKey]);
  const bands = useMemo<NormalBand[]>(
    () => drawn.map((vital) => ({ ...chartBand(vital, unit), ...VITAL_STYLE[vital] })),
    [drawn, unit],
  );
  const name = (vital: ChartVital) => seriesLabel(vital, symbol).replace(/ \(.*\)$/, '');
  const axisOf = (vital: ChartVital) => {
    const axis = axes[vital];
    return axis ? ` (axis ${axisText(vital, axis, unit)})` : '';
  };
  const spoken = drawn.map((v) => SPOKEN_NAME[v]);
  const series =
    spoken.length > 1 ? `${spoken.slice(0, -1).join(', ')} and ${spoken.at(-1)}` : spoken.join('');
  const chartLabel = `Line chart of ${series} over the chosen period: ${drawn.map((v) => `${name(v)}${axisOf(v)}`).join(', ')}; normal ranges shaded`;
  const rangeLabel = HEALTH_RANGES.find((r) => r.id === range)?.label.toLowerCase() ?? '';
  const resolution = h.shown ? resolutionText(h.shown.resolution, h.shown.bucketSeconds) : '';
  const gaps = useMemo(() => (h.shown ? gapsOf(h.shown) : []), [h.shown]);
  const withDay = h.window.to - h.window.from > 24 * 3600_000;

  return (
    <section
      aria-labelledby="health-trends-title"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 id="health-trends-title" className="text-lg font-semibold text-slate-900 dark:text-white">
          Health Trends
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          <RangeChoice value={range} onChange={onRangeChange} />
          <ExportMenu deviceId={deviceId} window={h.window} />
          <Button
            variant="secondary"
            size="sm"
            onClick={() => {
              chart.current?.resetZoom();
              h.resetView();
            }}
          >
            Reset Zoom
          </Button>
        </div>
      </div>
      {range === 'custom' && <CustomRange value={custom} onApply={setCustom} />}
      <div className="mb-3 flex flex-wrap items-center gap-2">
        <ChartToggle label="Temperature" pressed={withTemperature} onChange={setWithTemperature} />
        <ChartToggle label="Clinical range" pressed={clinical} onChange={setClinical} />
      </div>
      <div ref={area} className="relative h-64 md:h-96">
        {range === 'custom' && !custom ? (
          <p className="flex h-full items-center justify-center rounded-xl bg-slate-50 text-sm text-slate-600 dark:bg-slate-800/60 dark:text-slate-400">
            Choose a start and an end, then Show.
          </p>
        ) : h.loading || !inView ? (
          <Skeleton className="h-full w-full" />
        ) : h.error ? (
          <ErrorState title="Failed to fetch health data" message={h.error} onRetry={() => void h.retry()} />
        ) : !h.history || h.history.summary.readings === 0 || !heartRate || !spo2 ? (
          <p className="flex h-full items-center justify-center rounded-xl bg-slate-50 text-sm text-slate-600 dark:bg-slate-800/60 dark:text-slate-400">
            {range === 'custom' ? 'No readings in this period.' : `No readings in the ${rangeLabel}.`}
          </p>
        ) : (
          <ErrorBoundary
            onRetry={() => setTrendsChart(lazyChart)}
            fallback={(retry) => (
              <ErrorState title="Could not load the chart" message={CHART_FAILED} onRetry={retry} />
            )}
          >
            <Suspense fallback={<Skeleton className="h-full w-full" />}>
              <TrendsChart
                series={{ heartRate, spo2, temperature }}
                axes={axes}
                bands={bands}
                clinical={clinical}
                temperatureSymbol={symbol}
                label={chartLabel}
                window={h.window}
                theme={theme}
                mobile={mobile}
                withDay={withDay}
                handle={chart}
                onViewChange={h.setView}
              />
            </Suspense>
          </ErrorBoundary>
        )}
      </div>
      <p data-testid="normal-bands" className="mt-2 text-xs text-slate-600 dark:text-slate-400">
        Shaded: normal range ·{' '}
        {drawn.map((vital, i) => (
          <Fragment key={vital}>
            {i > 0 && ' · '}
            <span className="whitespace-nowrap">
              {name(vital)} {axisText(vital, chartBand(vital, unit), unit)}
            </span>
          </Fragment>
        ))}
      </p>
      {/* Its line is kept while loading, so the cards below do not jump when the data arrives. */}
      <p className="mt-2 min-h-4 text-xs text-slate-500 dark:text-slate-400">
        {h.shown && (
          <span data-testid="trends-resolution">
            {resolution}
            {h.shown.resolution !== 'raw' && ': line = average, band = lowest to highest'}
            {gaps.length > 0 && (
              <span data-testid="trends-gaps">
                {' · No readings '}
                {gaps.map((g) => `${timeLabel(g.from, withDay)}–${timeLabel(g.to, withDay)}`).join(', ')}
              </span>
            )}
          </span>
        )}
      </p>
      <div className="mt-4 grid grid-cols-2 gap-3">
        <AverageTile
          label="Avg. Heart Rate"
          stats={h.history?.summary.heartRate ?? null}
          loaded={Boolean(h.history)}
          unit="BPM"
          none="No heart-rate readings in this period"
        />
        <AverageTile
          label="Avg. SpO2"
          stats={h.history?.summary.spo2 ?? null}
          loaded={Boolean(h.history)}
          unit="%"
          none="No SpO2 readings in this period"
        />
      </div>
    </section>
  );
}
