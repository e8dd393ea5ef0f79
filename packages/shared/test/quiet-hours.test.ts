import { describe, expect, it } from 'vitest';
import { isInQuietHours, isKnownTimeZone } from '../src/rules/quiet-hours.ts';

describe('quiet hours', () => {
  const night = { start: '22:00', end: '07:00', timeZone: 'Europe/London' };

  it('spans midnight in the user’s own time zone (start inclusive, end exclusive)', () => {
    // 23 Nov 2026: London is on UTC.
    expect(isInQuietHours(night, new Date('2026-11-23T21:59:00Z'))).toBe(false);
    expect(isInQuietHours(night, new Date('2026-11-23T22:00:00Z'))).toBe(true);
    expect(isInQuietHours(night, new Date('2026-11-24T03:00:00Z'))).toBe(true);
    expect(isInQuietHours(night, new Date('2026-11-24T07:00:00Z'))).toBe(false);
    // Summer time: 22:00 in London is 21:00 UTC.
    expect(isInQuietHours(night, new Date('2026-07-01T21:30:00Z'))).toBe(true);
    expect(isInQuietHours({ ...night, timeZone: 'America/New_York' }, new Date('2026-11-24T03:00:00Z'))).toBe(
      true,
    );
    expect(isInQuietHours({ ...night, timeZone: 'America/New_York' }, new Date('2026-11-24T13:00:00Z'))).toBe(
      false,
    );
  });

  it('a window within one day, none when unset or empty', () => {
    const nap = { start: '13:00', end: '15:00', timeZone: 'UTC' };
    expect(isInQuietHours(nap, new Date('2026-11-23T14:59:00Z'))).toBe(true);
    expect(isInQuietHours(nap, new Date('2026-11-23T15:00:00Z'))).toBe(false);
    expect(isInQuietHours(null, new Date())).toBe(false);
    expect(isInQuietHours({ ...nap, end: '13:00' }, new Date('2026-11-23T13:30:00Z'))).toBe(false);
  });

  it('knows real time zones only', () => {
    expect(isKnownTimeZone('Asia/Kolkata')).toBe(true);
    expect(isKnownTimeZone('Mars/Olympus')).toBe(false);
  });
});
