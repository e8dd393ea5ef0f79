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
  type VitalCondition,
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
  /** Device time of the last reading of this vital that was judged. */
  seenAt: Date;
  /**
   * A high-priority episode: since when the value has stayed clear of the critical level by the
   * clearing margin (null: it has not). After the clearing time it counts as medium again, so a
   * later critical value raises again, without a value hovering at the critical level flooding.
   */
  calmSince: Date | null;
}

/**
 * Readings further apart than this (or than the delay or clearing time, if longer) do not make
 * one continuous observation: a pending or clearing condition starts over rather than counting a
 * device's silence as time spent out of range, or back in it.
 */
export const MAX_GAP_MS = 5 * 60_000;

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
 * Keep a raise in the walk's list and in its episode's. A plain function: a closure made for
 * every reading and condition (each one named at run time by the TypeScript loader) was the
 * largest part of the walk's cost on the ingest path.
 */
function raise<R extends TimedVitals>(
  walk: ConditionWalk<R>,
  sinceRaise: ConditionRaise<R>[],
  r: ConditionRaise<R>,
): void {
  walk.raises.push(r);
  sinceRaise.push(r);
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
 * reaches a critical value raises again, once, with high priority; it counts as medium again once
 * clear of the critical level by the margin for the clearing time. A gap between readings longer
 * than MAX_GAP_MS (or the delay or clearing time) restarts a pending or clearing condition.
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
    const maxGap = Math.max(MAX_GAP_MS, c.delaySeconds * 1000, c.clearSeconds * 1000);
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
      if (state && t.getTime() - state.seenAt.getTime() > maxGap) {
        // Not one continuous observation: what was pending starts over; clearing counts from now.
        if (state.phase === 'pending') state = null;
        else state = { ...state, since: state.phase === 'clearing' ? t : state.since, calmSince: null };
      }
      if (state === null || state.phase === 'pending') {
        if (!critical && !isOutOfRange(type, c, value)) {
          state = null;
          continue;
        }
        const pendingSince = state?.since ?? t;
        if (critical || t.getTime() - pendingSince.getTime() >= c.delaySeconds * 1000) {
          const priority = priorityOf(type, critical);
          raise(walk, sinceRaise, { type, reading, value, priority, endedInWalk: false });
          state = { phase: 'active', since: t, priority, seenAt: t, calmSince: null };
        } else {
          state = {
            phase: 'pending',
            since: pendingSince,
            priority: priorityOf(type),
            seenAt: t,
            calmSince: null,
          };
        }
        continue;
      }
      state = { ...state, seenAt: t };
      if (critical && state.priority !== 'high') {
        raise(walk, sinceRaise, { type, reading, value, priority: 'high', endedInWalk: false });
        state = { ...state, priority: 'high', calmSince: null };
      } else if (state.priority === 'high') {
        state = calmDown(type, c, state, value, t);
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

/**
 * Readings older than the device's newest do not move its conditions (newer readings decided
 * them), but a critical value among them is still news a carer must get: once per condition, it
 * raises a high-priority alert unless that condition is already open at high priority. With the
 * condition normal now the alert is stored resolved (`endedInWalk`: it is over); otherwise the open
 * condition becomes high priority.
 */
export function judgeLate<R extends TimedVitals>(
  after: Map<VitalAlarmType, ConditionState | null>,
  lateOldestFirst: readonly R[],
  settings: AlarmSettings,
): ConditionRaise<R>[] {
  const raises: ConditionRaise<R>[] = [];
  for (const type of VITAL_ALARM_TYPES) {
    const c = settings.conditions[type];
    const state = after.get(type) ?? null;
    if (state && state.phase !== 'pending' && state.priority === 'high') continue;
    const reading = lateOldestFirst.find((r) => {
      const value = r[VITAL_ALARMS[type].vital];
      return value !== null && isCritical(type, c, value);
    });
    const value = reading?.[VITAL_ALARMS[type].vital];
    if (!reading || value == null) continue;
    raises.push({ type, reading, value, priority: 'high', endedInWalk: state === null });
    if (state) after.set(type, { ...state, phase: 'active', priority: 'high', calmSince: null });
  }
  return raises;
}

/** A high-priority episode back to medium once clear of the critical level by the margin for the clearing time. */
function calmDown(type: VitalAlarmType, c: VitalCondition, state: ConditionState, value: number, t: Date) {
  const critical = c.critical;
  if (critical === null) return state;
  const calm =
    VITAL_ALARMS[type].direction === 'low'
      ? value >= critical + c.clearMargin
      : value <= critical - c.clearMargin;
  if (!calm) return { ...state, calmSince: null };
  const calmSince = state.calmSince ?? t;
  if (t.getTime() - calmSince.getTime() >= c.clearSeconds * 1000) {
    return { ...state, priority: priorityOf(type), calmSince: null };
  }
  return { ...state, calmSince };
}

const sameTime = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

/** Two states are the same row (nothing to write). */
export const sameState = (a: ConditionState | null | undefined, b: ConditionState | null | undefined) =>
  (a ?? null) === (b ?? null) ||
  (a != null &&
    b != null &&
    a.phase === b.phase &&
    a.priority === b.priority &&
    sameTime(a.since, b.since) &&
    sameTime(a.seenAt, b.seenAt) &&
    sameTime(a.calmSince, b.calmSince));
