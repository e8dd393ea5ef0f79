import type { ChartData, ChartOptions } from 'chart.js';
import { formatDateTime } from '@/lib/format-date.ts';
import type { PageTheme } from '@/lib/theme-storage.ts';
import type { AxisRange, ChartVital } from './chart-axes.ts';

/** Spec section 9: heart rate red, SpO2 blue. */
export const HEART_RATE_COLOR = '#ef4444';
export const SPO2_COLOR = '#3b82f6';
/** Not in the spec (it charts two vitals): amber, apart from both. */
export const TEMPERATURE_COLOR = '#d97706';

/** Each vital's colour and y axis. */
export const VITAL_STYLE: Record<ChartVital, { color: string; axis: 'y' | 'y1' | 'y2' }> = {
  heartRate: { color: HEART_RATE_COLOR, axis: 'y' },
  spo2: { color: SPO2_COLOR, axis: 'y1' },
  temperature: { color: TEMPERATURE_COLOR, axis: 'y2' },
};

const THEME_COLORS = {
  light: { text: '#475569', grid: '#e2e8f0', tooltipBg: '#0f172a', tooltipText: '#f8fafc' },
  dark: { text: '#94a3b8', grid: '#1e293b', tooltipBg: '#f8fafc', tooltipText: '#0f172a' },
} as const;

export type Point = { x: number; y: number | null };

/** One vital: the average line and the min–max band around it (see utils/history.ts). */
export interface SeriesData {
  avg: Point[];
  min: Point[];
  max: Point[];
}

const two = (n: number) => String(n).padStart(2, '0');

const monthDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });

/**
 * Tick label: hour:minute (spec 4); over several days the day goes in front, with its month named
 * as in every other date (lib/format-date.ts): "Mar 7 09:05".
 */
export function timeLabel(ms: number, withDay: boolean): string {
  const d = new Date(ms);
  const hm = `${two(d.getHours())}:${two(d.getMinutes())}`;
  return withDay ? `${monthDay.format(d)} ${hm}` : hm;
}

/** Beyond this many points per series the dots would merge into a thick line: only the line is drawn. */
export const DOTS_UP_TO = 120;

/** Datasets of the band's edges are named so; the legend and tooltip leave them out. */
const BAND = ' range';

/** The series drawn: heart rate and SpO2 (spec), temperature when the user adds it, in their unit. */
export interface TrendSeries {
  heartRate: SeriesData;
  spo2: SeriesData;
  temperature: SeriesData | null;
}

/** The series' labels: legend, tooltip, and (with `BAND`) their min–max band. */
export const seriesLabel = (vital: ChartVital, temperatureSymbol: string): string =>
  vital === 'heartRate'
    ? 'Heart Rate (BPM)'
    : vital === 'spo2'
      ? 'SpO2 (%)'
      : `Temperature (${temperatureSymbol})`;

/**
 * The vitals, oldest first, in the spec's colours: each an average line (tension 0.4) over a
 * faint min–max band. A null point is a gap: lines stop there (`spanGaps` off).
 */
export function trendData(
  series: TrendSeries,
  mobile: boolean,
  temperatureSymbol: string,
): ChartData<'line', Point[]> {
  const shown = (['heartRate', 'spo2', 'temperature'] as const).flatMap((vital) => {
    const s = series[vital];
    return s ? [{ vital, s }] : [];
  });
  const dots = Math.max(...shown.map(({ s }) => s.avg.length)) <= DOTS_UP_TO;
  const line = (label: string, color: string, data: Point[], yAxisID: string) => ({
    label,
    data,
    yAxisID,
    borderColor: color,
    backgroundColor: `${color}33`,
    borderWidth: mobile ? 1.5 : 2,
    pointRadius: dots ? (mobile ? 1.5 : 2.5) : 0,
    pointHoverRadius: mobile ? 3 : 5,
    tension: 0.4,
    spanGaps: false,
  });
  const band = (label: string, color: string, s: SeriesData, yAxisID: string) => [
    {
      label: `${label}${BAND}`,
      data: s.min,
      yAxisID,
      borderWidth: 0,
      pointRadius: 0,
      pointHitRadius: 0,
      spanGaps: false,
      fill: false,
      tension: 0.4,
    },
    {
      label: `${label}${BAND}`,
      data: s.max,
      yAxisID,
      borderWidth: 0,
      pointRadius: 0,
      pointHitRadius: 0,
      spanGaps: false,
      // Filled down to the min dataset just before it.
      fill: '-1',
      backgroundColor: `${color}26`,
      tension: 0.4,
    },
  ];
  return {
    datasets: shown.flatMap(({ vital, s }) => {
      const label = seriesLabel(vital, temperatureSymbol);
      const { color, axis } = VITAL_STYLE[vital];
      return [...band(label, color, s, axis), line(label, color, s.avg, axis)];
    }),
  };
}

interface TrendOptionsInput {
  theme: PageTheme;
  /** The chosen window: the x axis spans it whatever the data (a silent stretch shows as such). */
  window: { from: number; to: number };
  /** Called with the visible window after a zoom or pan. */
  onViewChange?: (view: { from: number; to: number }) => void;
  /** Under 768 px: smaller fonts, 6 x labels, no axis titles, no wheel zoom. */
  mobile: boolean;
  /** Label ticks with the day as well (periods longer than a day). */
  withDay: boolean;
  /** Each y axis (see chart-axes.ts); temperature's only when it is drawn. */
  axes: { heartRate: AxisRange; spo2: AxisRange; temperature: AxisRange | null };
  /** Fitted to the clinical range: every tick labelled. */
  clinical: boolean;
  temperatureSymbol: string;
}

/**
 * Spec section 9: heart-rate axis suggested 50–100 step 10, SpO2 axis 50–100 step 2 (`axes`, unless
 * fitted to the clinical range), 8 x labels
 * (6 on mobile), animations off, pinch zoom and drag-pan on x only (pan threshold 10), wheel zoom at
 * speed 0.1 on desktop. The server already keeps the points within a budget, so nothing is decimated;
 * after a zoom or pan the visible window is reported, to be fetched again at a finer resolution.
 */
export function trendOptions({
  theme,
  mobile,
  withDay,
  window,
  onViewChange,
  axes,
  clinical,
  temperatureSymbol,
}: TrendOptionsInput): ChartOptions<'line'> {
  const colors = THEME_COLORS[theme];
  const font = { size: mobile ? 10 : 12 };
  const title = (text: string) => ({ display: !mobile, text, color: colors.text, font });
  // The spec's ranges are suggestions (the axis widens to the data); the clinical fit is exact.
  const bounds = (a: AxisRange) =>
    clinical ? { min: a.min, max: a.max } : { suggestedMin: a.min, suggestedMax: a.max };
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    parsing: false,
    normalized: true,
    interaction: { mode: 'nearest', axis: 'x', intersect: false },
    scales: {
      x: {
        type: 'linear',
        min: window.from,
        max: window.to,
        title: title('Time'),
        ticks: {
          color: colors.text,
          font,
          // Evenly spaced labels over the visible time span: 8, or 6 on mobile.
          count: mobile ? 6 : 8,
          maxTicksLimit: mobile ? 6 : 8,
          maxRotation: 0,
          callback: (value) => timeLabel(Number(value), withDay),
        },
        grid: { color: colors.grid },
      },
      y: {
        type: 'linear',
        position: 'left',
        ...bounds(axes.heartRate),
        title: title(seriesLabel('heartRate', temperatureSymbol)),
        ticks: { stepSize: axes.heartRate.step, color: colors.text, font },
        grid: { color: colors.grid },
      },
      y1: {
        type: 'linear',
        position: 'right',
        ...bounds(axes.spo2),
        title: title(seriesLabel('spo2', temperatureSymbol)),
        // A tick every 2 (spec), all of them kept: Chart.js's automatic skipping dropped labels
        // unevenly and lost 100. Every tenth value is labelled, so the labels never crowd; fitted
        // to the clinical range (a few percent), every value is.
        ticks: {
          stepSize: axes.spo2.step,
          autoSkip: false,
          color: colors.text,
          font,
          callback: (value) => (clinical || Number(value) % 10 === 0 ? String(value) : ''),
        },
        grid: { drawOnChartArea: false, color: colors.grid },
      },
      ...(axes.temperature && {
        y2: {
          type: 'linear',
          position: 'right',
          ...bounds(axes.temperature),
          title: title(seriesLabel('temperature', temperatureSymbol)),
          ticks: { stepSize: axes.temperature.step, color: colors.text, font },
          grid: { drawOnChartArea: false, color: colors.grid },
        },
      }),
    },
    plugins: {
      legend: {
        labels: {
          color: colors.text,
          font,
          boxWidth: mobile ? 10 : 14,
          filter: (item) => !item.text.endsWith(BAND),
        },
      },
      tooltip: {
        backgroundColor: colors.tooltipBg,
        titleColor: colors.tooltipText,
        bodyColor: colors.tooltipText,
        filter: (item) => !(item.dataset.label ?? '').endsWith(BAND),
        callbacks: {
          title: (items) => (items[0] ? formatDateTime(items[0].parsed.x ?? 0) : ''),
        },
      },
      zoom: {
        limits: { x: { min: 'original', max: 'original' } },
        pan: {
          enabled: true,
          mode: 'x',
          threshold: 10,
          onPanComplete: ({ chart }) =>
            onViewChange?.({ from: chart.scales.x!.min, to: chart.scales.x!.max }),
        },
        zoom: {
          mode: 'x',
          wheel: { enabled: !mobile, speed: 0.1 },
          pinch: { enabled: true },
          onZoomComplete: ({ chart }) =>
            onViewChange?.({ from: chart.scales.x!.min, to: chart.scales.x!.max }),
        },
      },
    },
  };
}
