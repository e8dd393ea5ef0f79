import type { UserGrowthEntry } from '@vitalwatch/shared';
import {
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  type ChartOptions,
  LinearScale,
  Tooltip,
} from 'chart.js';
import { useMemo } from 'react';
import { Bar } from 'react-chartjs-2';
import type { PageTheme } from '@/lib/theme-storage.ts';
import { dayLabel } from '../../utils/user-growth.ts';

ChartJS.register(BarElement, CategoryScale, LinearScale, Tooltip);

const COLORS = {
  light: { bar: '#0f766e', text: '#475569', grid: '#e2e8f0' },
  dark: { bar: '#14b8a6', text: '#94a3b8', grid: '#1e293b' },
} as const;

interface GrowthChartProps {
  entries: readonly UserGrowthEntry[];
  theme: PageTheme;
}

/** New users per day as bars, oldest day on the left; whole-number axis, colours of the theme. */
export function GrowthChart({ entries, theme }: GrowthChartProps) {
  const colors = COLORS[theme];
  const data = useMemo(
    () => ({
      labels: entries.map((e) => dayLabel(e.date)),
      datasets: [
        {
          label: 'New users',
          data: entries.map((e) => e.users),
          backgroundColor: colors.bar,
          borderRadius: 6,
          maxBarThickness: 40,
        },
      ],
    }),
    [entries, colors.bar],
  );
  const options = useMemo<ChartOptions<'bar'>>(
    () => ({
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      plugins: { legend: { display: false } },
      scales: {
        x: { ticks: { color: colors.text, maxRotation: 0, autoSkip: true }, grid: { display: false } },
        y: {
          beginAtZero: true,
          suggestedMax: 4,
          ticks: { color: colors.text, precision: 0 },
          grid: { color: colors.grid },
        },
      },
    }),
    [colors.text, colors.grid],
  );
  const summary = entries.map((e) => `${dayLabel(e.date)}: ${e.users}`).join(', ');
  return (
    <div className="h-64">
      <Bar data={data} options={options} role="img" aria-label={`New users per day. ${summary}`} />
    </div>
  );
}
