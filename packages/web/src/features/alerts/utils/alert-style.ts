import type { AlertPriority, AlertRecord } from '@vitalwatch/shared';

/** Spec 9: FALL and SOS red (someone may need help), BATTERY blue, every other type yellow. */
export type AlertTone = 'red' | 'blue' | 'yellow';

export function alertTone(alertType: string): AlertTone {
  if (alertType === 'FALL' || alertType === 'SOS') return 'red';
  if (alertType === 'BATTERY') return 'blue';
  return 'yellow';
}

/**
 * The colour of an alert's card (edge and icon): its type's, except that a high-priority alert is
 * always red, so a critical vital (a yellow type) never reads as a warning beside its "High
 * priority" badge. The type badge keeps the type's colour.
 */
export function cardTone(alert: Pick<AlertRecord, 'alertType' | 'priority'>): AlertTone {
  return alert.priority === 'high' ? 'red' : alertTone(alert.alertType);
}

export const TONE_CLASSES: Record<AlertTone, { border: string; icon: string; badge: string }> = {
  red: {
    border: 'border-l-red-500 dark:border-l-red-500',
    icon: 'bg-red-100 text-red-700 dark:bg-red-950 dark:text-red-300',
    badge: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300',
  },
  blue: {
    border: 'border-l-blue-500 dark:border-l-blue-500',
    icon: 'bg-blue-100 text-blue-700 dark:bg-blue-950 dark:text-blue-300',
    badge: 'bg-blue-100 text-blue-800 dark:bg-blue-950 dark:text-blue-300',
  },
  yellow: {
    border: 'border-l-amber-400 dark:border-l-amber-400',
    icon: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300',
    badge: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  },
};

export const PRIORITY_CLASSES: Record<AlertPriority, string> = {
  high: 'bg-red-700 text-white dark:bg-red-400 dark:text-red-950',
  medium:
    'bg-amber-100 text-amber-900 ring-1 ring-amber-400 ring-inset dark:bg-amber-950 dark:text-amber-200',
  low: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
};
