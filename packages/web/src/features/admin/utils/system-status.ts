import type { ComponentStatus } from '@vitalwatch/shared';

interface StatusStyle {
  /** What the status is called next to a component. */
  label: string;
  /** The status dot: operational green, degraded yellow, outage red. */
  dot: string;
  /** Badge or banner colours in the same hue. */
  tone: string;
}

export const STATUS_STYLES: Record<ComponentStatus, StatusStyle> = {
  operational: {
    label: 'Operational',
    dot: 'bg-green-500',
    tone: 'border-green-200 bg-green-50 text-green-800 dark:border-green-900 dark:bg-green-950/50 dark:text-green-200',
  },
  degraded: {
    label: 'Degraded',
    dot: 'bg-yellow-400',
    tone: 'border-yellow-200 bg-yellow-50 text-yellow-900 dark:border-yellow-900 dark:bg-yellow-950/50 dark:text-yellow-200',
  },
  outage: {
    label: 'Outage',
    dot: 'bg-red-500',
    tone: 'border-red-200 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950/50 dark:text-red-200',
  },
};

/** The panel's summary line for the overall status (spec texts). */
export const OVERALL_TEXT: Record<ComponentStatus, string> = {
  operational: 'All systems operational',
  degraded: 'Partial system degradation',
  outage: 'System outage in progress',
};
