import { DEFAULT_ALARM_SETTINGS, isCritical, isOutOfRange, type VitalAlarmType } from './alarms.ts';
import type { Vital } from './vitals.ts';
import { isMissing } from './vitals.ts';

/**
 * Board tiles: each vital's state, and the device's triage level. Pure, so the server's tests, the
 * board and the wall display order tiles the same way.
 */

/**
 * A reading older than this is stale (never shown as normal); older than 15 minutes the device is
 * offline. Source: ISO 80601-2-61 (pulse oximeter equipment) has a monitor show, as a technical
 * alarm condition, SpO2 and pulse values that are no longer being updated (its "data update
 * period", 30 s). A wearable does not stream like a bedside probe: it sends a reading every 5 s
 * (the simulator's default) up to 60 s, and the network can hold it back, so the board allows two
 * 60-second reports to go missing, 2 minutes, before it stops showing a value as current.
 */
export const BOARD_STALE_AFTER_MS = 2 * 60_000;
/** Battery at or under this is low (the spec's battery range starts at 20 %). */
export const BOARD_LOW_BATTERY = 20;

export type BoardVitalState = 'normal' | 'abnormal' | 'critical' | 'stale' | 'offline' | 'missing';

/** The alarm types that watch each vital. */
const ALARMS_OF: Record<Vital, VitalAlarmType[]> = {
  spo2: ['LOW_SPO2'],
  heartRate: ['LOW_HEART_RATE', 'HIGH_HEART_RATE'],
  temperature: ['LOW_TEMPERATURE', 'HIGH_TEMPERATURE'],
  battery: ['BATTERY'],
};

type Limits = Record<VitalAlarmType, { limit: number; critical: number | null }>;
const conditionOf = (limits: Limits | null, type: VitalAlarmType) => {
  const d = DEFAULT_ALARM_SETTINGS.conditions[type];
  const own = limits?.[type];
  return own ? { ...d, ...own } : d;
};

/** How a value reads against the device's alarm limits (the defaults unless tuned). */
export function valueLevel(
  vital: Vital,
  value: number | null | undefined,
  limits: Limits | null,
): 'normal' | 'abnormal' | 'critical' | 'missing' {
  if (isMissing(value)) return 'missing';
  const types = ALARMS_OF[vital];
  if (types.some((t) => isCritical(t, conditionOf(limits, t), value))) return 'critical';
  if (types.some((t) => isOutOfRange(t, conditionOf(limits, t), value))) return 'abnormal';
  return 'normal';
}

/** Age of the newest reading: `live`, `stale` (over 2 min) or `offline` (over 15 min, or none). */
export function readingAge(createdAt: string | null | undefined, now: number): 'live' | 'stale' | 'offline' {
  if (!createdAt) return 'offline';
  const age = now - Date.parse(createdAt);
  if (Number.isNaN(age) || age > 15 * 60_000) return 'offline';
  return age > BOARD_STALE_AFTER_MS ? 'stale' : 'live';
}

/** A vital's state on a tile: stale or offline readings never show as normal (or as anything else). */
export function boardVitalState(
  vital: Vital,
  value: number | null | undefined,
  createdAt: string | null | undefined,
  limits: Limits | null,
  now: number,
): BoardVitalState {
  const age = readingAge(createdAt, now);
  if (age === 'offline') return 'offline';
  const level = valueLevel(vital, value, limits);
  if (level === 'missing') return 'missing';
  return age === 'stale' ? 'stale' : level;
}

/** The triage levels, most urgent first. */
export const TRIAGE_LEVELS = [
  'unacknowledged-high',
  'acknowledged-high',
  'medium',
  'offline',
  'low-battery',
  'normal',
] as const;
export type TriageLevel = (typeof TRIAGE_LEVELS)[number];

/** What a board counts in its summary line ("3 need attention · 2 offline · 25 normal"). */
export type TriageGroup = 'attention' | 'offline' | 'battery' | 'normal';
export const TRIAGE_GROUP_OF: Record<TriageLevel, TriageGroup> = {
  'unacknowledged-high': 'attention',
  'acknowledged-high': 'attention',
  medium: 'attention',
  offline: 'offline',
  'low-battery': 'battery',
  normal: 'normal',
};

interface TriageInput {
  latest: {
    spo2: number | null;
    heartRate: number | null;
    temperature: number | null;
    battery: number | null;
    createdAt: string;
  } | null;
  limits: Limits | null;
  alerts: readonly { priority: string; status: string }[];
}

const VITALS: Vital[] = ['spo2', 'heartRate', 'temperature'];

/**
 * A device's triage level: an unacknowledged high-priority alert, or a live critical value (the
 * alarm may not have sounded yet: SpO2 waits 30 s), first; then acknowledged high; an open medium
 * alert or a live abnormal value; offline or stale; low battery; normal.
 */
export function triageLevel(d: TriageInput, now: number): TriageLevel {
  const open = d.alerts.filter((a) => a.status !== 'resolved');
  const age = readingAge(d.latest?.createdAt, now);
  const live = d.latest && age === 'live' ? d.latest : null;
  const levels = live ? VITALS.map((v) => valueLevel(v, live[v], d.limits)) : [];
  if (open.some((a) => a.priority === 'high' && a.status === 'active') || levels.includes('critical'))
    return 'unacknowledged-high';
  if (open.some((a) => a.priority === 'high')) return 'acknowledged-high';
  if (open.some((a) => a.priority === 'medium') || levels.includes('abnormal')) return 'medium';
  if (age !== 'live') return 'offline';
  const battery = d.latest?.battery;
  if (open.length > 0 || (battery !== null && battery !== undefined && battery <= BOARD_LOW_BATTERY))
    return 'low-battery';
  return 'normal';
}
