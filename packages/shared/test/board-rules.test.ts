import { describe, expect, it } from 'vitest';
import { boardVitalState, readingAge, triageLevel } from '../src/rules/board.ts';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const reading = (
  over: Partial<Record<'spo2' | 'heartRate' | 'temperature' | 'battery', number>>,
  age = 1000,
) => ({
  spo2: 97,
  heartRate: 72,
  temperature: 97.8,
  battery: 80,
  ...over,
  createdAt: ago(age),
});
const device = (
  latest: ReturnType<typeof reading> | null,
  alerts: { priority: string; status: string }[] = [],
) => ({
  latest,
  limits: null,
  alerts,
});

/** Issue 25: tile states and triage order of the board. */
describe('board rules', () => {
  it('ages a reading: live up to 2 minutes, stale to 15, offline after or without one', () => {
    expect(readingAge(ago(119_000), NOW)).toBe('live');
    expect(readingAge(ago(121_000), NOW)).toBe('stale');
    expect(readingAge(ago(15 * 60_000 + 1), NOW)).toBe('offline');
    expect(readingAge(null, NOW)).toBe('offline');
  });

  it('never shows a stale or offline value as normal, or as anything it no longer is', () => {
    expect(boardVitalState('spo2', 97, ago(1000), null, NOW)).toBe('normal');
    expect(boardVitalState('spo2', 93, ago(1000), null, NOW)).toBe('abnormal');
    expect(boardVitalState('spo2', 90, ago(1000), null, NOW)).toBe('critical');
    expect(boardVitalState('spo2', 97, ago(5 * 60_000), null, NOW)).toBe('stale');
    expect(boardVitalState('spo2', 90, ago(20 * 60_000), null, NOW)).toBe('offline');
    // A device tuned for a COPD patient: 90 % is its normal.
    const tuned = { LOW_SPO2: { limit: 88, critical: 85 } } as never;
    expect(boardVitalState('spo2', 90, ago(1000), tuned, NOW)).toBe('normal');
  });

  it('orders by triage: unacknowledged high or a live critical value, acknowledged high, medium, offline, low battery, normal', () => {
    expect(triageLevel(device(reading({}), [{ priority: 'high', status: 'active' }]), NOW)).toBe(
      'unacknowledged-high',
    );
    expect(triageLevel(device(reading({ spo2: 86 })), NOW)).toBe('unacknowledged-high');
    expect(triageLevel(device(reading({}), [{ priority: 'high', status: 'acknowledged' }]), NOW)).toBe(
      'acknowledged-high',
    );
    expect(triageLevel(device(reading({ heartRate: 110 })), NOW)).toBe('medium');
    expect(triageLevel(device(reading({}, 20 * 60_000)), NOW)).toBe('offline');
    expect(triageLevel(device(null), NOW)).toBe('offline');
    // A critical value that is 5 minutes old is no longer known to be true: stale, not urgent.
    expect(triageLevel(device(reading({ spo2: 86 }, 5 * 60_000)), NOW)).toBe('offline');
    expect(triageLevel(device(reading({ battery: 8 })), NOW)).toBe('low-battery');
    expect(triageLevel(device(reading({})), NOW)).toBe('normal');
  });
});
