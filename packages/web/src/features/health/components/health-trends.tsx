import { type HealthRecord, MOBILE_BREAKPOINT_PX } from '@vitalwatch/shared';
import { useMemo, useRef } from 'react';
import { Button } from '../../../components/button.tsx';
import { Skeleton } from '../../../components/status-panels.tsx';
import { useAppSelector } from '../../../lib/store/hooks.ts';
import { selectPageTheme } from '../../../lib/store/theme-slice.ts';
import { useMediaQuery } from '../../../lib/use-media-query.ts';
import { average, HEALTH_RANGES, type HealthRangeId, seriesOf } from '../utils/records.ts';
import { RangeChoice } from './range-choice.tsx';
import { TrendsChart, type TrendsChartHandle } from './trends-chart.tsx';

interface HealthTrendsProps {
  records: HealthRecord[];
  loading: boolean;
  range: HealthRangeId;
  onRangeChange: (range: HealthRangeId) => void;
}

function AverageTile({ label, value, unit }: { label: string; value: number; unit: string }) {
  return (
    <div className="rounded-xl bg-slate-50 p-4 dark:bg-slate-800/60">
      <p className="text-sm text-slate-600 dark:text-slate-400">{label}</p>
      <p className="mt-1 text-2xl font-bold text-slate-900 dark:text-white">
        {value} <span className="text-sm font-medium text-slate-500 dark:text-slate-400">{unit}</span>
      </p>
    </div>
  );
}

/** Health Trends: period choice, the chart with 'Reset Zoom', and the two averages of the period. */
export function HealthTrends({ records, loading, range, onRangeChange }: HealthTrendsProps) {
  const theme = useAppSelector(selectPageTheme);
  const mobile = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`);
  const chart = useRef<TrendsChartHandle>(null);
  const heartRate = useMemo(() => seriesOf(records, 'heartRate'), [records]);
  const spo2 = useMemo(() => seriesOf(records, 'spo2'), [records]);
  const rangeLabel = HEALTH_RANGES.find((r) => r.id === range)?.label.toLowerCase() ?? '';

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
          <Button variant="secondary" size="sm" onClick={() => chart.current?.resetZoom()}>
            Reset Zoom
          </Button>
        </div>
      </div>
      <div className="relative h-64 md:h-96">
        {loading ? (
          <Skeleton className="h-full w-full" />
        ) : records.length === 0 ? (
          <p className="flex h-full items-center justify-center rounded-xl bg-slate-50 text-sm text-slate-600 dark:bg-slate-800/60 dark:text-slate-400">
            No readings in the {rangeLabel}.
          </p>
        ) : (
          <TrendsChart
            heartRate={heartRate}
            spo2={spo2}
            theme={theme}
            mobile={mobile}
            withDay={range === 'week'}
            handle={chart}
          />
        )}
      </div>
      <div className="mt-4 grid grid-cols-2 gap-3">
        <AverageTile label="Avg. Heart Rate" value={average(records, 'heartRate')} unit="BPM" />
        <AverageTile label="Avg. SpO2" value={average(records, 'spo2')} unit="%" />
      </div>
    </section>
  );
}
