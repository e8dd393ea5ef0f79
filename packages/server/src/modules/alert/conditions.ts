import {
  type AlarmSettings,
  type AlertPriority,
  isClear,
  isCritical,
  isOutOfRange,
  priorityOf,
  VITAL_ALARM_TYPES,
  VITAL_ALARMS,
  type VitalAlarmType,
} from '@vitalwatch/shared';

/** The vitals of one reading; null when the device did not measure it. */
export interface Vitals {
  spo2: number | null;
  heartRate: number | null;
  temperature: number | null;
  battery: number | null;
}

export interface TimedVitals extends Vitals {
  recordedAt: Date;
}

/** A condition that is not quietly normal (the `alert_episodes` row). */
export interface ConditionState {
  phase: 'pending' | 'active' | 'clearing';
  /** Device time the phase began. */
  since: Date;
  priority: AlertPriority;
}

export interface ConditionRaise<R extends TimedVitals> {
  type: VitalAlarmType;
  reading: R;
  value: number;
  priority: AlertPriority;
  /** Its episode ended again within these readings: store it resolved. */
  endedInWalk: boolean;
}

export interface ConditionWalk<R extends TimedVitals> {
  raises: ConditionRaise<R>[];
  /** Each condition's state after the readings (null: normal). */
  after: Map<VitalAlarmType, ConditionState | null>;
  /** Conditions whose episode, raised before these readings, ended in them: resolve their alerts. */
  endedBefore: VitalAlarmType[];
}

/**
 * Judge one device's readings, oldest first, from each condition's state before them. Times are
 * device times (`recordedAt`), so the same readings give the same result whether they arrive one
 * by one, in a batch, or after a gap in the connection; a missing value changes nothing.
 *
 * normal → pending when out of range; pending → active (raise) once out of range for the delay,
 * or at once at a critical value; pending → normal when back in range before that. active →
 * clearing when back inside the limit by the margin; clearing → normal (episode over) once clear
 * for the clearing time; clearing → active when not clear again. An active medium episode that
 * reaches a critical value raises again, once, with high priority.
 */
export function walkConditions<R extends TimedVitals>(
  before: ReadonlyMap<string, ConditionState>,
  readingsOldestFirst: readonly R[],
  settings: AlarmSettings,
): ConditionWalk<R> {
  const walk: ConditionWalk<R> = { raises: [], after: new Map(), endedBefore: [] };
  for (const type of VITAL_ALARM_TYPES) {
    const c = settings.conditions[type];
    const { vital } = VITAL_ALARMS[type];
    let state: ConditionState | null = before.get(type) ?? null;
    /** The episode raised before these readings is still the current one. */
    let episodeFromBefore = state !== null && state.phase !== 'pending';
    let sinceRaise: ConditionRaise<R>[] = [];
    let endedBefore = false;
    for (const reading of readingsOldestFirst) {
      const value = reading[vital];
      if (value === null) continue;
      const t = reading.recordedAt;
      const critical = isCritical(type, c, value);
      const raise = (priority: AlertPriority) => {
        const r = { type, reading, value, priority, endedInWalk: false };
        walk.raises.push(r);
        sinceRaise.push(r);
      };
      if (state === null || state.phase === 'pending') {
        if (!critical && !isOutOfRange(type, c, value)) {
          state = null;
          continue;
        }
        const pendingSince = state?.since ?? t;
        if (critical || t.getTime() - pendingSince.getTime() >= c.delaySeconds * 1000) {
          const priority = priorityOf(type, critical);
          raise(priority);
          state = { phase: 'active', since: t, priority };
        } else {
          state = { phase: 'pending', since: pendingSince, priority: priorityOf(type) };
        }
        continue;
      }
      if (critical && state.priority !== 'high') {
        raise('high');
        state = { ...state, priority: 'high' };
      }
      if (!isClear(type, c, value)) {
        state = state.phase === 'active' ? state : { ...state, phase: 'active', since: t };
        continue;
      }
      const clearSince = state.phase === 'clearing' ? state.since : t;
      if (t.getTime() - clearSince.getTime() >= c.clearSeconds * 1000) {
        // Episode over: whatever it raised is resolved.
        for (const r of sinceRaise) r.endedInWalk = true;
        endedBefore ||= episodeFromBefore;
        episodeFromBefore = false;
        sinceRaise = [];
        state = null;
      } else {
        state = { ...state, phase: 'clearing', since: clearSince };
      }
    }
    walk.after.set(type, state);
    if (endedBefore) walk.endedBefore.push(type);
  }
  return walk;
}

/** Two states are the same row (nothing to write). */
export const sameState = (a: ConditionState | null | undefined, b: ConditionState | null | undefined) =>
  (a ?? null) === (b ?? null) ||
  (a != null &&
    b != null &&
    a.phase === b.phase &&
    a.priority === b.priority &&
    a.since.getTime() === b.since.getTime());
