import {
  Chart as ChartJS,
  Decimation,
  Legend,
  LinearScale,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import zoomPlugin from 'chartjs-plugin-zoom';
import { type Ref, useImperativeHandle, useMemo, useRef } from 'react';
import { Line } from 'react-chartjs-2';
import type { PageTheme } from '../../../lib/theme-storage.ts';
import { type Point, trendData, trendOptions } from '../utils/chart-config.ts';

ChartJS.register(LineElement, PointElement, LinearScale, Tooltip, Legend, Decimation, zoomPlugin);

export interface TrendsChartHandle {
  resetZoom: () => void;
}

interface TrendsChartProps {
  heartRate: Point[];
  spo2: Point[];
  theme: PageTheme;
  mobile: boolean;
  withDay: boolean;
  handle: Ref<TrendsChartHandle>;
}

/** The Health Trends line chart (Chart.js with the zoom plugin; see chart-config.ts for the spec's rules). */
export function TrendsChart({ heartRate, spo2, theme, mobile, withDay, handle }: TrendsChartProps) {
  const chart = useRef<ChartJS<'line', Point[]>>(null);
  useImperativeHandle(handle, () => ({ resetZoom: () => chart.current?.resetZoom() }), []);
  // Chart.js decimation rewrites datasets in place, so each render hands it fresh copies.
  const data = useMemo(() => trendData([...heartRate], [...spo2], mobile), [heartRate, spo2, mobile]);
  const options = useMemo(() => trendOptions({ theme, mobile, withDay }), [theme, mobile, withDay]);
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
