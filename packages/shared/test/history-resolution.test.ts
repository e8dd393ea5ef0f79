import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { historyResolution } from '../src/rules/history-resolution.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** 2000-01-01T00:00:00Z, the origin the server aligns buckets to. */
const ORIGIN = Date.UTC(2000, 0, 1);

/** Buckets of `minutes` aligned to ORIGIN that [from, to] touches: the most a history can return. */
const touched = (from: number, to: number, minutes: number) => {
  const width = minutes * MINUTE;
  return Math.floor((to - ORIGIN) / width) - Math.floor((from - ORIGIN) / width) + 1;
};

describe('historyResolution', () => {
  it('gives a 24 h window of a 1 Hz device 3-minute buckets: 480, within 500 and far more than 24', () => {
    const to = Date.UTC(2026, 10, 25, 17, 0, 0);
    const r = historyResolution(to - DAY, to, 500, 86_400);
    expect(r).toEqual({ source: 'minute', bucketMinutes: 3 });
    expect(touched(to - DAY, to, r.bucketMinutes)).toBeGreaterThan(24);
    expect(touched(to - DAY, to, r.bucketMinutes)).toBeLessThanOrEqual(500);
  });

  it('keeps every reading when they fit, minutes up to an hour, whole hours beyond', () => {
    expect(historyResolution(0, DAY, 500, 500)).toEqual({ source: 'raw', bucketMinutes: 0 });
    expect(historyResolution(0, HOUR, 500, 3600)).toEqual({ source: 'minute', bucketMinutes: 1 });
    expect(historyResolution(0, 7 * DAY, 500, 604_800)).toEqual({ source: 'minute', bucketMinutes: 21 });
    expect(historyResolution(0, 30 * DAY, 500, 2_592_000)).toEqual({ source: 'hour', bucketMinutes: 120 });
    // A window of exactly `points` minutes touches points + 1 aligned minutes: 2 minutes wide.
    expect(historyResolution(0, 500 * MINUTE, 500, 30_000)).toEqual({ source: 'minute', bucketMinutes: 2 });
  });

  it('never returns more buckets than the budget, and no narrower width would fit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: ORIGIN, max: ORIGIN + 30 * 365 * DAY }),
        fc.integer({ min: 1, max: 400 * DAY }),
        fc.integer({ min: 10, max: 2000 }),
        fc.integer({ min: 0, max: 40_000_000 }),
        (from, span, points, readings) => {
          const to = from + span;
          const r = historyResolution(from, to, points, readings);
          if (readings <= points) {
            expect(r).toEqual({ source: 'raw', bucketMinutes: 0 });
            return;
          }
          expect(touched(from, to, r.bucketMinutes)).toBeLessThanOrEqual(points);
          const unit = r.source === 'hour' ? 60 : 1;
          expect(r.bucketMinutes % unit).toBe(0);
          expect(r.source === 'minute' ? r.bucketMinutes < 60 : r.bucketMinutes >= 60).toBe(true);
          // One unit narrower would not fit where the window's ends fall worst for it.
          const narrower = r.bucketMinutes - unit;
          if (narrower > 0) expect(Math.ceil(span / (narrower * MINUTE)) + 1).toBeGreaterThan(points);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
