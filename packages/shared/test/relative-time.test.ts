import { describe, expect, it } from 'vitest';
import { relativeTime } from '../src/index.ts';

const NOW = new Date('2026-03-01T12:00:00Z');
const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(NOW.getTime() - ms);

describe('relativeTime', () => {
  it('says Never without a record', () => {
    expect(relativeTime(null, NOW)).toBe('Never');
    expect(relativeTime(undefined, NOW)).toBe('Never');
    expect(relativeTime('not a date', NOW)).toBe('Never');
  });

  it('says Just now under a minute and for future times', () => {
    expect(relativeTime(NOW, NOW)).toBe('Just now');
    expect(relativeTime(ago(59 * SEC), NOW)).toBe('Just now');
    expect(relativeTime(ago(-5 * MIN), NOW)).toBe('Just now');
  });

  it.each([
    [1 * MIN, '1 minute ago'],
    [2 * MIN, '2 minutes ago'],
    [59 * MIN + 59 * SEC, '59 minutes ago'],
    [1 * HOUR, '1 hour ago'],
    [23 * HOUR, '23 hours ago'],
    [1 * DAY, '1 day ago'],
    [6 * DAY, '6 days ago'],
    [7 * DAY, '1 week ago'],
    [14 * DAY, '2 weeks ago'],
    [29 * DAY, '4 weeks ago'],
    [30 * DAY, '1 month ago'],
    [300 * DAY, '10 months ago'],
    [365 * DAY, '1 year ago'],
    [3 * 365 * DAY, '3 years ago'],
  ])('%i ms ago reads "%s"', (ms, text) => {
    expect(relativeTime(ago(ms), NOW)).toBe(text);
  });

  it('accepts ISO strings', () => {
    expect(relativeTime('2026-03-01T11:55:00Z', NOW)).toBe('5 minutes ago');
  });
});
