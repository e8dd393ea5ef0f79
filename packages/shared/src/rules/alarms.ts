/**
 * Alarm rules: when a reading becomes an alert. The cards keep the spec's normal ranges and turn
 * red at once (display); alerts are raised by these conditions on top of them, so a value hovering
 * at a limit does not page a carer every few seconds, and a dangerous value is never delayed.
 *
 * Sources of the defaults (also in the README):
 * - Alarm limits: the spec's normal ranges (SpO2 < 95 %, heart rate outside 60–100 BPM,
 *   temperature outside 95–98.4 °F, battery < 20 %).
 * - Critical limits, raised at once with high priority: the 3-point bands of the Royal College of
 *   Physicians' NEWS2 chart (SpO2 scale 1 ≤ 91 %, pulse ≤ 40 or ≥ 131 /min, temperature
 *   ≤ 35.0 °C = 95 °F, as < 95 °F: the spec's 95 °F is normal). For high temperature, NEWS2's top band, ≥ 39.1 °C = 102.38 °F (2 points,
 *   the most it gives temperature); 102.2 °F would be 39.0 °C, still in its 1-point band.
 * - Delays: SpO2 and heart rate 30 s, because most short dips worn at home are motion or probe
 *   artefacts, and surveillance monitoring delays notification for the same reason (Taenzer et al.,
 *   Anesthesiology 2010); temperature 5 min, as it moves slowly and a single odd reading is often a
 *   probe coming loose; battery at once, since it only falls.
 * - Clearing (hysteresis): the value must be back inside its limit by a margin (SpO2 1 %, NEWS2's
 *   0-point band starts at 96 %; heart rate 5 BPM; temperature 0.4 °F; battery 5 %) for as long
 *   as the raise delay (battery: at once), so a value hovering at the limit keeps one episode
 *   open instead of opening a new one each time it crosses.
 * - Priorities after IEC 60601-1-8 (high: immediate response needed; medium: prompt; low:
 *   awareness).
 */
import type { AlertType } from '../constants.ts';
import type { Vital } from './vitals.ts';

export const ALERT_PRIORITIES = ['high', 'medium', 'low'] as const;
export type AlertPriority = (typeof ALERT_PRIORITIES)[number];

/** active → acknowledged → resolved, shared by everyone assigned to the device. */
export const ALERT_STATUSES = ['active', 'acknowledged', 'resolved'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/** Sort rank: high first. */
export const PRIORITY_RANK: Record<AlertPriority, number> = { high: 0, medium: 1, low: 2 };

/** Device-raised events a person must act on: high priority, escalated, never snoozed. */
export const URGENT_ALERT_TYPES: readonly string[] = ['FALL', 'SOS'];

export const VITAL_ALARM_TYPES = [
  'LOW_SPO2',
  'LOW_HEART_RATE',
  'HIGH_HEART_RATE',
  'LOW_TEMPERATURE',
  'HIGH_TEMPERATURE',
  'BATTERY',
] as const satisfies readonly AlertType[];
export type VitalAlarmType = (typeof VITAL_ALARM_TYPES)[number];

/** One vital alarm condition of one device. */
export interface VitalCondition {
  /** Alarm limit: below it (direction 'low') or above it ('high') is out of range. */
  limit: number;
  /** At or beyond this the alert is raised at once with high priority; null: no critical level. */
  critical: number | null;
  /** Out of range for this long (device time) before the alert is raised. */
  delaySeconds: number;
  /** The episode ends once the value is back inside the limit by this margin… */
  clearMargin: number;
  /** …for this long (device time). */
  clearSeconds: number;
}

export interface EscalationSettings {
  /** An unacknowledged high-priority alert is sent again this often… */
  repeatEveryMinutes: number;
  /** …until this long after it was raised. */
  repeatForMinutes: number;
  /** From this long after the raise, backup contacts get it too. */
  backupAfterMinutes: number;
  /**
   * A primary contact none of whose browsers reported the push (shown, opened) nor acknowledged
   * within this long is tried on their next channel (SMS, e-mail, webhooks), each this long apart.
   */
  fallbackAfterSeconds: number;
}

export interface AlarmSettings {
  conditions: Record<VitalAlarmType, VitalCondition>;
  escalation: EscalationSettings;
}

/** Fixed facts of each vital condition: which vital, which side, its unit. */
export const VITAL_ALARMS: Record<
  VitalAlarmType,
  { vital: Vital; direction: 'low' | 'high'; unit: string; title: string; priority: AlertPriority }
> = {
  LOW_SPO2: { vital: 'spo2', direction: 'low', unit: '%', title: 'Low blood oxygen', priority: 'medium' },
  LOW_HEART_RATE: {
    vital: 'heartRate',
    direction: 'low',
    unit: 'BPM',
    title: 'Low heart rate',
    priority: 'medium',
  },
  HIGH_HEART_RATE: {
    vital: 'heartRate',
    direction: 'high',
    unit: 'BPM',
    title: 'High heart rate',
    priority: 'medium',
  },
  LOW_TEMPERATURE: {
    vital: 'temperature',
    direction: 'low',
    unit: '°F',
    title: 'Low body temperature',
    priority: 'medium',
  },
  HIGH_TEMPERATURE: {
    vital: 'temperature',
    direction: 'high',
    unit: '°F',
    title: 'High body temperature',
    priority: 'medium',
  },
  BATTERY: { vital: 'battery', direction: 'low', unit: '%', title: 'Low battery', priority: 'low' },
};

export const DEFAULT_ALARM_SETTINGS: AlarmSettings = {
  conditions: {
    LOW_SPO2: { limit: 95, critical: 91, delaySeconds: 30, clearMargin: 1, clearSeconds: 30 },
    LOW_HEART_RATE: { limit: 60, critical: 40, delaySeconds: 30, clearMargin: 5, clearSeconds: 30 },
    HIGH_HEART_RATE: { limit: 100, critical: 131, delaySeconds: 30, clearMargin: 5, clearSeconds: 30 },
    // NEWS2 scores ≤ 35.0 °C (95 °F) 3 points, but the spec counts 95.0 °F itself as normal: the
    // critical level is the first value below it at the devices' one-decimal precision.
    LOW_TEMPERATURE: { limit: 95, critical: 94.9, delaySeconds: 300, clearMargin: 0.4, clearSeconds: 300 },
    HIGH_TEMPERATURE: {
      limit: 98.4,
      critical: 102.38,
      delaySeconds: 300,
      clearMargin: 0.4,
      clearSeconds: 300,
    },
    BATTERY: { limit: 20, critical: null, delaySeconds: 0, clearMargin: 5, clearSeconds: 0 },
  },
  // Fallback after 60 s (issue 30's default): a high-urgency Web Push reaches an awake phone in
  // seconds, so a minute of silence means the push did not reach the person; it is half the first
  // repeat (2 min) and a fifth of the backup step (5 min), so the person is tried on another
  // channel before the repeat and long before anyone else is called.
  escalation: {
    repeatEveryMinutes: 2,
    repeatForMinutes: 30,
    backupAfterMinutes: 5,
    fallbackAfterSeconds: 60,
  },
};

interface Bounds {
  min: number;
  max: number;
}

/**
 * Safe bounds of each setting: an admin or carer may tune a device to its wearer (a COPD patient
 * whose usual SpO2 is 90 %), but never turn an alarm into one that cannot sound or sounds too late.
 */
export const ALARM_BOUNDS: Record<
  VitalAlarmType,
  { limit: Bounds; critical: Bounds | null; delaySeconds: Bounds; clearMargin: Bounds; clearSeconds: Bounds }
> = {
  LOW_SPO2: {
    limit: { min: 85, max: 98 },
    critical: { min: 80, max: 95 },
    delaySeconds: { min: 0, max: 120 },
    clearMargin: { min: 0, max: 3 },
    clearSeconds: { min: 0, max: 300 },
  },
  LOW_HEART_RATE: {
    limit: { min: 30, max: 70 },
    critical: { min: 25, max: 60 },
    delaySeconds: { min: 0, max: 120 },
    clearMargin: { min: 0, max: 10 },
    clearSeconds: { min: 0, max: 300 },
  },
  HIGH_HEART_RATE: {
    limit: { min: 90, max: 180 },
    critical: { min: 100, max: 220 },
    delaySeconds: { min: 0, max: 120 },
    clearMargin: { min: 0, max: 10 },
    clearSeconds: { min: 0, max: 300 },
  },
  LOW_TEMPERATURE: {
    limit: { min: 93, max: 97 },
    critical: { min: 90, max: 96 },
    delaySeconds: { min: 0, max: 1800 },
    clearMargin: { min: 0, max: 2 },
    clearSeconds: { min: 0, max: 1800 },
  },
  HIGH_TEMPERATURE: {
    limit: { min: 98, max: 102 },
    critical: { min: 100, max: 106 },
    delaySeconds: { min: 0, max: 1800 },
    clearMargin: { min: 0, max: 2 },
    clearSeconds: { min: 0, max: 1800 },
  },
  BATTERY: {
    limit: { min: 5, max: 50 },
    critical: null,
    delaySeconds: { min: 0, max: 600 },
    clearMargin: { min: 0, max: 20 },
    clearSeconds: { min: 0, max: 600 },
  },
};

export const ESCALATION_BOUNDS: Record<keyof EscalationSettings, Bounds> = {
  repeatEveryMinutes: { min: 1, max: 10 },
  repeatForMinutes: { min: 5, max: 120 },
  backupAfterMinutes: { min: 1, max: 60 },
  fallbackAfterSeconds: { min: 15, max: 600 },
};

/** The value is out of range (strictly beyond the limit: the spec's bounds are normal). */
export function isOutOfRange(type: VitalAlarmType, c: VitalCondition, value: number): boolean {
  return VITAL_ALARMS[type].direction === 'low' ? value < c.limit : value > c.limit;
}

/** The value is at or beyond the critical level. */
export function isCritical(type: VitalAlarmType, c: VitalCondition, value: number): boolean {
  if (c.critical === null) return false;
  return VITAL_ALARMS[type].direction === 'low' ? value <= c.critical : value >= c.critical;
}

/** The value is back inside the limit by the clearing margin. */
export function isClear(type: VitalAlarmType, c: VitalCondition, value: number): boolean {
  return VITAL_ALARMS[type].direction === 'low'
    ? value >= c.limit + c.clearMargin
    : value <= c.limit - c.clearMargin;
}

/** Priority of an alert type as raised (vital conditions at their critical level are high). */
export function priorityOf(alertType: string, critical = false): AlertPriority {
  if (URGENT_ALERT_TYPES.includes(alertType) || critical) return 'high';
  if (alertType === 'DEVICE_OFFLINE' || alertType === 'BATTERY') return 'low';
  return alertType in VITAL_ALARMS ? VITAL_ALARMS[alertType as VitalAlarmType].priority : 'medium';
}
