import type { BoardVitalState } from '@vitalwatch/shared';

/** The state in words: colour is never the only sign. */
export const VITAL_STATE_LABELS: Record<BoardVitalState, string> = {
  normal: 'Normal',
  abnormal: 'Abnormal',
  critical: 'Critical',
  stale: 'Stale',
  offline: 'Offline',
  missing: 'No data',
};

/** Stale and offline are grey, never green: a value nobody knows is still true must not reassure. */
const LOOK: Record<BoardVitalState, string> = {
  normal: 'border-emerald-600/40 bg-emerald-50 text-emerald-900 dark:bg-emerald-950/40 dark:text-emerald-100',
  abnormal: 'border-amber-600 bg-amber-50 text-amber-950 dark:bg-amber-950/50 dark:text-amber-50',
  critical: 'border-red-700 bg-red-100 text-red-950 dark:bg-red-950 dark:text-red-50',
  stale: 'border-slate-400 bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100',
  offline: 'border-slate-400 bg-slate-200 text-slate-800 dark:bg-slate-800 dark:text-slate-200',
  missing: 'border-slate-300 bg-white text-slate-700 dark:bg-slate-900 dark:text-slate-300',
};

interface VitalCellProps {
  label: string;
  value: string;
  state: BoardVitalState;
  large?: boolean;
}

/** One vital on a tile: its name, value and state in words. */
export function VitalCell({ label, value, state, large = false }: VitalCellProps) {
  return (
    <div className={`rounded-lg border px-2 py-1.5 ${LOOK[state]}`} data-state={state}>
      <div className={`font-medium opacity-90 ${large ? 'text-lg' : 'text-xs'}`}>{label}</div>
      <div className={`font-bold tabular-nums ${large ? 'text-4xl' : 'text-lg'}`}>{value}</div>
      <div className={`font-semibold ${large ? 'text-lg' : 'text-xs'}`}>{VITAL_STATE_LABELS[state]}</div>
    </div>
  );
}
