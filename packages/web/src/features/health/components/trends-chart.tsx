import { Chart as ChartJS, Filler, Legend, LinearScale, LineElement, PointElement, Tooltip } from 'chart.js';
import zoomPlugin from 'chartjs-plugin-zoom';
import { type Ref, useImperativeHandle, useMemo, useRef } from 'react';
import { Line } from 'react-chartjs-2';
import type { PageTheme } from '@/lib/theme-storage.ts';
import { type Point, type SeriesData, trendData, trendOptions } from '../utils/chart-config.ts';

ChartJS.register(LineElement, PointElement, LinearScale, Tooltip, Legend, Filler, zoomPlugin);

export interface TrendsChartHandle {
  resetZoom: () => void;
}

interface TrendsChartProps {
  heartRate: SeriesData;
  spo2: SeriesData;
  window: { from: number; to: number };
  theme: PageTheme;
  mobile: boolean;
  withDay: boolean;
  handle: Ref<TrendsChartHandle>;
  onViewChange: (view: { from: number; to: number }) => void;
}

/** The Health Trends line chart (Chart.js with the zoom plugin; see chart-config.ts for the spec's rules). */
export function TrendsChart({
  heartRate,
  spo2,
  window,
  theme,
  mobile,
  withDay,
  handle,
  onViewChange,
}: TrendsChartProps) {
  const chart = useRef<ChartJS<'line', Point[]>>(null);
  useImperativeHandle(handle, () => ({ resetZoom: () => chart.current?.resetZoom() }), []);
  const data = useMemo(() => trendData(heartRate, spo2, mobile), [heartRate, spo2, mobile]);
  const { from, to } = window;
  const options = useMemo(
    () => trendOptions({ theme, mobile, withDay, window: { from, to }, onViewChange }),
    [theme, mobile, withDay, from, to, onViewChange],
  );
  return (
    <Line
      ref={chart}
      data={data}
      options={options}
      role="img"
      aria-label="Line chart of heart rate and SpO2 over the chosen period"
    />
  );
}
