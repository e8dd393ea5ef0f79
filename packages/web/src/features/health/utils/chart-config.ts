import type { ChartData, ChartOptions } from 'chart.js';
import type { PageTheme } from '../../../lib/theme-storage.ts';

/** Spec section 9: heart rate red, SpO2 blue. */
export const HEART_RATE_COLOR = '#ef4444';
export const SPO2_COLOR = '#3b82f6';

const THEME_COLORS = {
  light: { text: '#475569', grid: '#e2e8f0', tooltipBg: '#0f172a', tooltipText: '#f8fafc' },
  dark: { text: '#94a3b8', grid: '#1e293b', tooltipBg: '#f8fafc', tooltipText: '#0f172a' },
} as const;

export type Point = { x: number; y: number };

const two = (n: number) => String(n).padStart(2, '0');

/** Tick label: hour:minute; over several days the day goes in front (dd/mm HH:mm). */
export function timeLabel(ms: number, withDay: boolean): string {
  const d = new Date(ms);
  const hm = `${two(d.getHours())}:${two(d.getMinutes())}`;
  return withDay ? `${two(d.getDate())}/${two(d.getMonth() + 1)} ${hm}` : hm;
}

/** Beyond this many points per series the dots would merge into a thick line: only the line is drawn. */
export const DOTS_UP_TO = 120;

/** The two series, oldest first, in the spec's colours, with a tension of 0.4. */
export function trendData(heartRate: Point[], spo2: Point[], mobile: boolean): ChartData<'line', Point[]> {
  const dots = Math.max(heartRate.length, spo2.length) <= DOTS_UP_TO;
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
  });
  return {
    datasets: [
      line('Heart Rate (BPM)', HEART_RATE_COLOR, heartRate, 'y'),
      line('SpO2 (%)', SPO2_COLOR, spo2, 'y1'),
    ],
  };
}

interface TrendOptionsInput {
  theme: PageTheme;
  /** Under 768 px: smaller fonts, 6 x labels, no axis titles, no wheel zoom. */
  mobile: boolean;
  /** Label ticks with the day as well (periods longer than a day). */
  withDay: boolean;
}

/**
 * Spec section 9: heart-rate axis suggested 50–100 step 10, SpO2 axis 50–100 step 2, 8 x labels
 * (6 on mobile), animations off, pinch zoom and drag-pan on x only (pan threshold 10), wheel zoom at
 * speed 0.1 on desktop. Points are decimated (LTTB) so thousands of readings stay readable.
 */
export function trendOptions({ theme, mobile, withDay }: TrendOptionsInput): ChartOptions<'line'> {
  const colors = THEME_COLORS[theme];
  const font = { size: mobile ? 10 : 12 };
  const title = (text: string) => ({ display: !mobile, text, color: colors.text, font });
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
        bounds: 'data',
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
        suggestedMin: 50,
        suggestedMax: 100,
        title: title('Heart Rate (BPM)'),
        ticks: { stepSize: 10, color: colors.text, font },
        grid: { color: colors.grid },
      },
      y1: {
        type: 'linear',
        position: 'right',
        suggestedMin: 50,
        suggestedMax: 100,
        title: title('SpO2 (%)'),
        ticks: { stepSize: 2, color: colors.text, font },
        grid: { drawOnChartArea: false, color: colors.grid },
      },
    },
    plugins: {
      legend: { labels: { color: colors.text, font, boxWidth: mobile ? 10 : 14 } },
      tooltip: {
        backgroundColor: colors.tooltipBg,
        titleColor: colors.tooltipText,
        bodyColor: colors.tooltipText,
        callbacks: {
          title: (items) => (items[0] ? new Date(items[0].parsed.x ?? 0).toLocaleString('en-US') : ''),
        },
      },
      decimation: { enabled: true, algorithm: 'lttb', samples: mobile ? 150 : 400 },
      zoom: {
        limits: { x: { min: 'original', max: 'original' } },
        pan: { enabled: true, mode: 'x', threshold: 10 },
        zoom: {
          mode: 'x',
          wheel: { enabled: !mobile, speed: 0.1 },
          pinch: { enabled: true },
        },
      },
    },
  };
}
