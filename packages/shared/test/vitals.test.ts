import { describe, expect, it } from 'vitest';
import {
  isDeviceOnline,
  isMissing,
  isNormal,
  normalBand,
  outOfRangeSide,
  progressPercent,
  vitalState,
} from '../src/index.ts';

describe('progressPercent', () => {
  it('scales each vital on its own range', () => {
    expect(progressPercent('spo2', 95)).toBe(50);
    expect(progressPercent('heartRate', 80)).toBe(50);
    expect(progressPercent('temperature', 96.7)).toBeCloseTo(50);
    expect(progressPercent('battery', 42)).toBe(42);
  });

  it('clamps to 0–100', () => {
    expect(progressPercent('spo2', 80)).toBe(0);
    expect(progressPercent('spo2', 101)).toBe(100);
    expect(progressPercent('heartRate', 30)).toBe(0);
    expect(progressPercent('heartRate', 180)).toBe(100);
    expect(progressPercent('temperature', 90)).toBe(0);
    expect(progressPercent('temperature', 104)).toBe(100);
    expect(progressPercent('battery', -5)).toBe(0);
    expect(progressPercent('battery', 120)).toBe(100);
  });

  it('counts a missing value as 0', () => {
    expect(progressPercent('battery', null)).toBe(0);
    expect(progressPercent('spo2', undefined)).toBe(0);
  });
});

describe('isNormal', () => {
  it('SpO2 is normal from 95', () => {
    expect(isNormal('spo2', 94.9)).toBe(false);
    expect(isNormal('spo2', 95)).toBe(true);
    expect(isNormal('spo2', 100)).toBe(true);
  });

  it('heart rate is normal from 60 to 100 inclusive', () => {
    expect(isNormal('heartRate', 59)).toBe(false);
    expect(isNormal('heartRate', 60)).toBe(true);
    expect(isNormal('heartRate', 100)).toBe(true);
    expect(isNormal('heartRate', 101)).toBe(false);
  });

  it('temperature is normal from 95 to 98.4 °F inclusive', () => {
    expect(isNormal('temperature', 94.9)).toBe(false);
    expect(isNormal('temperature', 95)).toBe(true);
    expect(isNormal('temperature', 98.4)).toBe(true);
    expect(isNormal('temperature', 98.5)).toBe(false);
  });

  it('battery is normal from 20', () => {
    expect(isNormal('battery', 19)).toBe(false);
    expect(isNormal('battery', 20)).toBe(true);
  });

  it('a missing value is neither normal nor out of range', () => {
    expect(isNormal('battery', null)).toBe(false);
    expect(outOfRangeSide('spo2', null)).toBeNull();
    expect(outOfRangeSide('heartRate', undefined)).toBeNull();
  });
});

describe('missing values', () => {
  it('a field absent or null as stored is missing; a measured 0 is not', () => {
    expect(isMissing(null)).toBe(true);
    expect(isMissing(undefined)).toBe(true);
    expect(isMissing(0)).toBe(false);
  });

  it('a missing vital is never judged: its state is missing, not low', () => {
    expect(vitalState('spo2', null)).toBe('missing');
    expect(vitalState('heartRate', undefined)).toBe('missing');
    expect(vitalState('temperature', null)).toBe('missing');
    expect(vitalState('battery', null)).toBe('missing');
    expect(vitalState('heartRate', 0)).toBe('low');
    expect(vitalState('spo2', 95)).toBe('normal');
    expect(vitalState('temperature', 98.5)).toBe('high');
  });
});

describe('normalBand', () => {
  it('places the normal range on each progress scale, an open end closed at the scale end', () => {
    expect(normalBand('spo2')).toEqual({ min: 95, max: 100, fromPercent: 50, toPercent: 100 });
    expect(normalBand('heartRate')).toEqual({ min: 60, max: 100, fromPercent: 0, toPercent: 100 });
    expect(normalBand('temperature')).toEqual({ min: 95, max: 98.4, fromPercent: 0, toPercent: 100 });
    expect(normalBand('battery')).toEqual({ min: 20, max: 100, fromPercent: 20, toPercent: 100 });
  });
});

describe('isDeviceOnline', () => {
  const now = new Date('2026-03-01T12:00:00Z');
  const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000);

  it('is online up to and including 15 minutes', () => {
    expect(isDeviceOnline(minutesAgo(0), now)).toBe(true);
    expect(isDeviceOnline(minutesAgo(15), now)).toBe(true);
    expect(isDeviceOnline(minutesAgo(15).toISOString(), now)).toBe(true);
  });

  it('is offline after 15 minutes or without any update', () => {
    expect(isDeviceOnline(new Date(minutesAgo(15).getTime() - 1), now)).toBe(false);
    expect(isDeviceOnline(null, now)).toBe(false);
    expect(isDeviceOnline('garbage', now)).toBe(false);
  });
});
