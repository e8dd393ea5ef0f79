import { Chart as ChartJS, Filler, Legend, LinearScale, LineElement, PointElement, Tooltip } from 'chart.js';
import zoomPlugin from 'chartjs-plugin-zoom';
import { type Ref, useImperativeHandle, useMemo, useRef } from 'react';
import { Line } from 'react-chartjs-2';
import type { PageTheme } from '@/lib/theme-storage.ts';
import type { ChartAxes } from '../utils/chart-axes.ts';
import { type Point, type TrendSeries, trendData, trendOptions } from '../utils/chart-config.ts';
import { type NormalBand, normalBandsPlugin } from '../utils/normal-bands.ts';

ChartJS.register(LineElement, PointElement, LinearScale, Tooltip, Legend, Filler, zoomPlugin);

export interface TrendsChartHandle {
  resetZoom: () => void;
}

interface TrendsChartProps {
  series: TrendSeries;
  axes: ChartAxes;
  bands: readonly NormalBand[];
  clinical: boolean;
  temperatureSymbol: string;
  window: { from: number; to: number };
  theme: PageTheme;
  mobile: boolean;
  withDay: boolean;
  /** What the chart shows, in words (its accessible name). */
  label: string;
  handle: Ref<TrendsChartHandle>;
  onViewChange: (view: { from: number; to: number }) => void;
}

/** The Health Trends line chart (Chart.js with the zoom plugin; see chart-config.ts for the spec's rules). */
export function TrendsChart({
  series,
  axes,
  bands,
  clinical,
  temperatureSymbol,
  window,
  theme,
  mobile,
  withDay,
  label,
  handle,
  onViewChange,
}: TrendsChartProps) {
  const chart = useRef<ChartJS<'line', Point[]>>(null);
  useImperativeHandle(handle, () => ({ resetZoom: () => chart.current?.resetZoom() }), []);
  const data = useMemo(
    () => trendData(series, mobile, temperatureSymbol),
    [series, mobile, temperatureSymbol],
  );
  const { from, to } = window;
  const options = useMemo(
    () =>
      trendOptions({
        theme,
        mobile,
        withDay,
        window: { from, to },
        onViewChange,
        axes,
        clinical,
        temperatureSymbol,
      }),
    [theme, mobile, withDay, from, to, onViewChange, axes, clinical, temperatureSymbol],
  );
  // One plugin for the chart's life (a new one would rebuild the chart); it reads the bands of the
  // latest render, and every change of bands comes with new options or data, which redraw.
  const latestBands = useRef(bands);
  latestBands.current = bands;
  const plugins = useMemo(() => [normalBandsPlugin(() => latestBands.current)], []);
  return <Line ref={chart} data={data} options={options} plugins={plugins} role="img" aria-label={label} />;
}
