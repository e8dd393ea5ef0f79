import { DEFAULT_ALARM_SETTINGS } from '@vitalwatch/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ConditionState,
  judgeLate,
  type TimedVitals,
  walkConditions,
} from '../src/modules/alert/conditions.ts';
import { formatValue } from '../src/modules/alert/rules.ts';

const T0 = Date.UTC(2026, 0, 1);
const reading = (second: number, v: Partial<Omit<TimedVitals, 'recordedAt'>>): TimedVitals => ({
  recordedAt: new Date(T0 + second * 1000),
  spo2: v.spo2 ?? null,
  heartRate: v.heartRate ?? null,
  temperature: v.temperature ?? null,
  battery: v.battery ?? null,
});
const spo2At1Hz = (values: number[], from = 0) => values.map((spo2, i) => reading(from + i, { spo2 }));

/** A seeded generator, so the stream is the same on every run. */
function lcg(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Raised {
  type: string;
  at: number;
  priority: string;
  resolved: boolean;
}

/**
 * Feed readings in batches of the given sizes (cycled), carrying the state over and resolving
 * stored alerts as the database would.
 */
function inBatches(readings: TimedVitals[], sizes: number[] = [1]) {
  let state = new Map<string, ConditionState>();
  const raises: Raised[] = [];
  let ended = 0;
  for (let i = 0, c = 0; i < readings.length; c++) {
    const size = sizes[c % sizes.length]!;
    const walk = walkConditions(state, readings.slice(i, i + size), DEFAULT_ALARM_SETTINGS);
    i += size;
    for (const type of walk.endedBefore) for (const r of raises) if (r.type === type) r.resolved = true;
    ended += walk.endedBefore.length;
    for (const x of walk.raises) {
      raises.push({
        type: x.type,
        at: x.reading.recordedAt.getTime(),
        priority: x.priority,
        resolved: x.endedInWalk,
      });
      ended += x.endedInWalk ? 1 : 0;
    }
    state = new Map([...walk.after].flatMap(([k, v]) => (v ? [[k, v] as const] : [])));
  }
  raises.sort((a, b) => a.at - b.at || a.type.localeCompare(b.type));
  return { raises, state, ended };
}
const oneByOne = (readings: TimedVitals[]) => inBatches(readings);

describe('alarm conditions (device time)', () => {
  it('a one-hour stream hovering at the SpO2 limit raises at most one alert (was ~800)', () => {
    const rand = lcg(20261123);
    // 94, 95 or 96 % once a second: about a third below the limit, never for long.
    const values = Array.from({ length: 3600 }, () => 94 + Math.floor(rand() * 3));
    expect(values.filter((v) => v < 95).length).toBeGreaterThan(1100);
    const { raises } = oneByOne(spo2At1Hz(values));
    expect(raises.length).toBeLessThanOrEqual(1);
    // The old rule (raise on every crossing into range) on the same stream, for the record.
    const crossings = values.filter((v, i) => v < 95 && (i === 0 || values[i - 1]! >= 95)).length;
    expect(crossings).toBeGreaterThan(700);
  });

  it('a sustained desaturation raises exactly one medium alert once its 30 s delay has passed', () => {
    const values = [...Array(10).fill(97), ...Array(120).fill(93), ...Array(60).fill(97)];
    const { raises } = oneByOne(spo2At1Hz(values));
    expect(raises).toHaveLength(1);
    expect(raises[0]).toMatchObject({ type: 'LOW_SPO2', priority: 'medium' });
    // Out of range from second 10: raised at the first reading ≥ 30 s later, within delay + 1 s.
    const delayS = (raises[0]!.at - T0) / 1000 - 10;
    expect(delayS).toBeGreaterThanOrEqual(30);
    expect(delayS).toBeLessThanOrEqual(31);
  });

  it('a critical value raises at once with high priority; a medium episode turning critical raises once more', () => {
    expect(oneByOne(spo2At1Hz([97, 88])).raises).toEqual([
      expect.objectContaining({ type: 'LOW_SPO2', priority: 'high', at: T0 + 1000 }),
    ]);
    const worsening = [...Array(40).fill(93), ...Array(20).fill(90), ...Array(20).fill(89)];
    expect(oneByOne(spo2At1Hz(worsening)).raises.map((r) => r.priority)).toEqual(['medium', 'high']);
    for (const [v, type] of [
      [{ heartRate: 40 }, 'LOW_HEART_RATE'],
      [{ heartRate: 131 }, 'HIGH_HEART_RATE'],
      [{ temperature: 94.9 }, 'LOW_TEMPERATURE'],
      [{ temperature: 102.4 }, 'HIGH_TEMPERATURE'],
    ] as const) {
      expect(oneByOne([reading(0, v)]).raises).toEqual([expect.objectContaining({ type, priority: 'high' })]);
    }
    expect(oneByOne([reading(0, { heartRate: 130 }), reading(1, { temperature: 102.2 })]).raises).toEqual([]);
  });

  it('ends an episode only when back inside the limit by the margin for the clearing time', () => {
    // Raised at 30 s; 95 % is inside the limit but not by the 1 % margin: the episode stays.
    const values = [...Array(31).fill(93), ...Array(100).fill(95), ...Array(29).fill(96)];
    const held = oneByOne(spo2At1Hz(values));
    expect(held.raises).toHaveLength(1);
    expect(held.state.get('LOW_SPO2')?.phase).toBe('clearing');
    const cleared = oneByOne(spo2At1Hz([...values, 96, 96]));
    expect(cleared.state.has('LOW_SPO2')).toBe(false);
    expect(cleared.ended).toBe(1);
    // Down again after it ended: a new episode, a new alert.
    expect(oneByOne(spo2At1Hz([...values, 96, 96, ...Array(31).fill(93)])).raises).toHaveLength(2);
  });

  it('battery raises at once and clears at once above 25 %; a missing value changes nothing', () => {
    const r = oneByOne([
      reading(0, { battery: 19 }),
      reading(1, { spo2: 97 }),
      reading(2, { battery: 22 }),
      reading(3, { battery: 25 }),
    ]);
    expect(r.raises).toEqual([expect.objectContaining({ type: 'BATTERY', priority: 'low' })]);
    expect(r.ended).toBe(1);
  });

  it('treats the normal-range bounds as normal', () => {
    const bounds = [reading(0, { spo2: 95, heartRate: 60, battery: 20, temperature: 95 })];
    const later = [...bounds, reading(600, { spo2: 95, heartRate: 100, battery: 20, temperature: 98.4 })];
    expect(oneByOne(later).raises).toEqual([]);
  });

  it('raises the same alerts whether readings come one by one or in any split into batches', () => {
    const vitals = fc.record({
      spo2: fc.option(fc.integer({ min: 85, max: 99 }), { nil: null }),
      heartRate: fc.option(fc.integer({ min: 35, max: 140 }), { nil: null }),
      temperature: fc.option(fc.constantFrom(94.5, 96, 98, 99, 102.5), { nil: null }),
      battery: fc.option(fc.integer({ min: 10, max: 30 }), { nil: null }),
    });
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(vitals, fc.oneof(fc.integer({ min: 1, max: 90 }), fc.integer({ min: 250, max: 700 }))),
          {
            maxLength: 80,
          },
        ),
        fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 20 }),
        (steps, cuts) => {
          let t = 0;
          const readings = steps.map(([v, gap]) => {
            t += gap;
            return reading(t, v);
          });
          const single = oneByOne(readings);
          const batched = inBatches(readings, cuts);
          // Which alerts, when, how urgent, and which of them are resolved: identical.
          expect(batched.raises).toEqual(single.raises);
          expect([...batched.state]).toEqual([...single.state]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a gap in the readings restarts a pending or clearing condition instead of counting as time', () => {
    // Out of range at 0 s, then the device is silent for 10 min: still only pending.
    const gap = [reading(0, { spo2: 93 }), reading(600, { spo2: 93 })];
    expect(oneByOne(gap).raises).toEqual([]);
    expect(oneByOne([...gap, reading(631, { spo2: 93 })]).raises).toHaveLength(1);
    // Raised, then one clear reading an hour later: clearing starts there, the episode stays open.
    const later = [...spo2At1Hz(Array(31).fill(93)), reading(3600, { spo2: 98 })];
    expect(oneByOne(later).state.get('LOW_SPO2')?.phase).toBe('clearing');
    expect(oneByOne([...later, reading(3631, { spo2: 98 })]).state.has('LOW_SPO2')).toBe(false);
  });

  it('a critical episode hovering at the critical level raises once; calm for the clearing time, then critical again, raises again', () => {
    const hover = Array.from({ length: 600 }, (_, i) => [90, 91, 92][i % 3]!);
    const first = oneByOne(spo2At1Hz([88, ...hover]));
    expect(first.raises.map((r) => r.priority)).toEqual(['high']);
    const calm = [88, ...hover, ...Array(40).fill(93), 88];
    expect(oneByOne(spo2At1Hz(calm)).raises.map((r) => r.priority)).toEqual(['high', 'high']);
  });

  it('a late critical reading still raises: resolved when the condition is normal now, escalating when open', () => {
    const after = new Map<never, ConditionState | null>();
    const normalNow = judgeLate(
      after,
      [reading(0, { spo2: 97 }), reading(1, { spo2: 86 })],
      DEFAULT_ALARM_SETTINGS,
    );
    expect(normalNow).toEqual([
      expect.objectContaining({ type: 'LOW_SPO2', value: 86, priority: 'high', endedInWalk: true }),
    ]);
    const open = inBatches(spo2At1Hz(Array(40).fill(93))).state as Map<never, ConditionState | null>;
    const raised = judgeLate(open, [reading(-5, { spo2: 86 })], DEFAULT_ALARM_SETTINGS);
    expect(raised).toEqual([expect.objectContaining({ priority: 'high', endedInWalk: false })]);
    expect(open.get('LOW_SPO2' as never)?.priority).toBe('high');
    expect(judgeLate(open, [reading(-4, { spo2: 85 })], DEFAULT_ALARM_SETTINGS)).toEqual([]);
  });

  it('formats values with at most one decimal', () => {
    expect([91, 101.26, 98.4, 15.04].map(formatValue)).toEqual(['91', '101.3', '98.4', '15']);
  });
});
