import { isNormal, outOfRangeSide, PROGRESS_SCALES, progressPercent, type Vital } from '@vitalwatch/shared';
import type { ReactNode } from 'react';

export interface MetricDefinition {
  vital: Vital;
  label: string;
  unit: string;
  /** The word shown outside the normal range ('Abnormal', or 'Low Battery'). */
  abnormalText: string;
  icon: ReactNode;
  /** The stored value as shown (°F to the user's unit); ranges are judged on the stored value. */
  shown?: (value: number) => number;
}

/** A value as the card shows it: missing is 0 (spec 3), temperature with one decimal. */
export function formatVital(vital: Vital, value: number | null | undefined): string {
  const v = value ?? 0;
  if (vital === 'temperature') return v.toFixed(1);
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
}

const withUnit = (value: number, unit: string) =>
  unit === '%' || unit.startsWith('°') ? `${value}${unit}` : `${value} ${unit}`;

interface MetricCardProps {
  metric: MetricDefinition;
  value: number | null | undefined;
  /** The reading is older than the online threshold: grey, 'Stale', never 'Normal'. */
  stale?: boolean;
}

const BADGE = {
  normal: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300',
  abnormal: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300',
  stale: 'bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100',
};
const BAR = { normal: 'bg-emerald-500', abnormal: 'bg-red-500', stale: 'bg-slate-400' };
/**
 * A value below the scale (SpO2 89 % on the 90–100 scale) is clamped to 0 %: drawn as an empty bar
 * it would look like no data. It keeps a red sliver at the low end instead.
 */
const MIN_VISIBLE_PERCENT = 3;

/**
 * One vital: value with unit, a progress bar on the spec's scale (clamped 0–100 %) with its low
 * and high ends, green in the normal range, red with 'Abnormal' / 'Low Battery' outside it, and
 * which way ('↓ Low' / '↑ High'): a carer must not have to know the range to read the card.
 */
export function MetricCard({ metric, value, stale = false }: MetricCardProps) {
  const { vital, label, unit, abnormalText, icon, shown = (v: number) => v } = metric;
  const normal = isNormal(vital, value);
  const look = stale ? 'stale' : normal ? 'normal' : 'abnormal';
  // A missing value shows as 0 (spec): no data, so no direction and no sliver.
  const side = stale || normal || value == null ? null : outOfRangeSide(vital, value);
  const percent = Math.max(progressPercent(vital, value), side === 'low' ? MIN_VISIBLE_PERCENT : 0);
  const scale = PROGRESS_SCALES[vital];
  return (
    <section
      aria-label={label}
      className="flex min-w-0 flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="flex items-center gap-2 text-sm font-medium text-slate-600 dark:text-slate-300">
          <span className="text-teal-700 dark:text-teal-400">{icon}</span>
          {label}
        </h2>
        <span className="flex items-center gap-1.5">
          {side && vital !== 'battery' && (
            <span
              data-testid={`${vital}-side`}
              className="text-xs font-semibold whitespace-nowrap text-red-700 dark:text-red-300"
            >
              {side === 'low' ? '↓ Low' : '↑ High'}
            </span>
          )}
          <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${BADGE[look]}`}>
            {stale ? 'Stale' : normal ? 'Normal' : abnormalText}
          </span>
        </span>
      </div>
      <p className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl dark:text-white">
        <span data-testid={`${vital}-value`}>{formatVital(vital, value == null ? value : shown(value))}</span>{' '}
        <span className="text-sm font-medium text-slate-500 sm:text-base dark:text-slate-400">{unit}</span>
      </p>
      <div>
        <div className="h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700">
          <div
            data-testid={`${vital}-bar`}
            className={`h-2 rounded-full ${BAR[look]}`}
            style={{ width: `${percent}%` }}
          />
        </div>
        <div className="mt-1.5 flex justify-between text-xs text-slate-500 dark:text-slate-400">
          <span>
            <span className="sr-only">Low </span>
            {withUnit(shown(scale.min), unit)}
          </span>
          <span>
            <span className="sr-only">High </span>
            {withUnit(shown(scale.max), unit)}
          </span>
        </div>
      </div>
    </section>
  );
}
