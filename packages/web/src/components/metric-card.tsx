import {
  normalBand,
  PROGRESS_SCALES,
  progressPercent,
  type Vital,
  type VitalState,
  vitalState,
} from '@vitalwatch/shared';
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

const withUnit = (value: string | number, unit: string) =>
  unit === '%' || unit.startsWith('°') ? `${value}${unit}` : `${value} ${unit}`;

interface MetricCardProps {
  metric: MetricDefinition;
  value: number | null | undefined;
  /** The reading is older than the online threshold: it says so, and what the value meant then. */
  stale?: boolean;
  /** The word a stale card's badge starts with: 'Stale', or 'Not live' while live data has stopped. */
  staleLabel?: string;
}

type Look = 'normal' | 'abnormal' | 'staleNormal' | 'staleAbnormal' | 'missing';

const BADGE: Record<Look, string> = {
  normal: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300',
  abnormal: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300',
  staleNormal: 'bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100',
  // Muted but present: an outline in the abnormal colour, on the stale grey.
  staleAbnormal:
    'bg-slate-100 text-red-800 ring-1 ring-red-300 dark:bg-slate-800 dark:text-red-300 dark:ring-red-800',
  missing: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
};
const BAR: Record<Look, string> = {
  normal: 'bg-emerald-500',
  abnormal: 'bg-red-500',
  staleNormal: 'bg-slate-400',
  staleAbnormal: 'bg-red-300 dark:bg-red-800',
  missing: 'bg-slate-400',
};
const SIDE = {
  abnormal: 'text-red-700 dark:text-red-300',
  staleAbnormal: 'text-red-700/80 dark:text-red-300/80',
};
/**
 * A value below the scale (SpO2 89 % on the 90–100 scale) is clamped to 0 %: drawn as an empty bar
 * it would look like no data. It keeps a red sliver at the low end instead.
 */
const MIN_VISIBLE_PERCENT = 3;

/** Trailing zeros off (95, 98.4), one decimal at most. */
const bound = (v: number) => String(Math.round(v * 10) / 10);

function lookOf(state: VitalState, stale: boolean): Look {
  if (state === 'missing') return 'missing';
  if (state === 'normal') return stale ? 'staleNormal' : 'normal';
  return stale ? 'staleAbnormal' : 'abnormal';
}

/**
 * One vital: value with unit, a progress bar on the spec's scale (clamped 0–100 %) with its low
 * and high ends and its normal range marked, green in the normal range, red with 'Abnormal' /
 * 'Low Battery' outside it, and which way ('↓ Low' / '↑ High'): a carer must not have to know the
 * range to read the card. A value the reading did not carry shows 0 (spec) and says 'No reading';
 * a stale one says so and what it meant.
 */
export function MetricCard({ metric, value, stale = false, staleLabel = 'Stale' }: MetricCardProps) {
  const { vital, label, unit, abnormalText, icon, shown = (v: number) => v } = metric;
  const state = vitalState(vital, value);
  const look = lookOf(state, stale);
  const side = state === 'low' || state === 'high' ? state : null;
  const verdict = state === 'normal' ? 'Normal' : abnormalText;
  // On a phone 'Stale · was Abnormal' takes two lines: it breaks after the dot, never inside the verdict.
  const badge =
    look === 'missing' ? (
      'No reading'
    ) : stale ? (
      <>
        {staleLabel} · <span className="whitespace-nowrap">was {verdict}</span>
      </>
    ) : (
      verdict
    );
  const percent = Math.max(progressPercent(vital, value), side === 'low' ? MIN_VISIBLE_PERCENT : 0);
  const scale = PROGRESS_SCALES[vital];
  const band = normalBand(vital);
  const normalText = withUnit(`${bound(shown(band.min))}–${bound(shown(band.max))}`, unit);
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
        <span className="flex flex-wrap items-center gap-1.5">
          {side && vital !== 'battery' && (look === 'abnormal' || look === 'staleAbnormal') && (
            <span
              data-testid={`${vital}-side`}
              className={`text-xs font-semibold whitespace-nowrap ${SIDE[look]}`}
            >
              {side === 'low' ? '↓ Low' : '↑ High'}
            </span>
          )}
          <span
            data-testid={`${vital}-status`}
            className={`px-2 py-0.5 text-xs font-semibold ${stale ? 'rounded-lg' : 'rounded-full'} ${BADGE[look]}`}
          >
            {badge}
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
        {/* The normal range as a bracket under the bar: the scale's ends are not its limits (SpO2 is normal from 95). */}
        <div aria-hidden="true" className="relative h-1.5">
          <div
            data-testid={`${vital}-normal-band`}
            className="absolute inset-y-0 rounded-b-sm border-x-2 border-b-2 border-emerald-600 dark:border-emerald-400"
            style={{ left: `${band.fromPercent}%`, right: `${100 - band.toPercent}%` }}
          />
        </div>
        <div className="mt-0.5 flex justify-between text-xs text-slate-500 dark:text-slate-400">
          <span>
            <span className="sr-only">Scale from </span>
            {withUnit(bound(shown(scale.min)), unit)}
          </span>
          <span>
            <span className="sr-only">to </span>
            {withUnit(bound(shown(scale.max)), unit)}
          </span>
        </div>
        <p
          data-testid={`${vital}-normal-range`}
          className="mt-0.5 flex items-start gap-1.5 text-xs text-emerald-800 dark:text-emerald-300"
        >
          <span
            aria-hidden="true"
            className="mt-1 h-1.5 w-3 shrink-0 rounded-b-sm border-x-2 border-b-2 border-emerald-600 dark:border-emerald-400"
          />
          <span>
            Normal<span className="sr-only"> range</span>:{' '}
            <span className="whitespace-nowrap">{normalText}</span>
          </span>
        </p>
      </div>
    </section>
  );
}
