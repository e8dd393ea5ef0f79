import { describe, expect, it } from 'vitest';
import { limitTier, perLimitTier } from '../src/db/once-for.ts';

describe('limitTier: the LIMIT a prepared statement is made with', () => {
  const upTo = (max: number) => Array.from({ length: max }, (_, i) => i + 1);

  it('is exact up to 4, then reads at most a quarter more rows than asked', () => {
    for (const n of upTo(4)) expect(limitTier(n)).toBe(n);
    for (const n of upTo(10_000)) {
      expect(limitTier(n)).toBeGreaterThanOrEqual(n);
      expect(limitTier(n)).toBeLessThanOrEqual(Math.max(4, 1.25 * n));
    }
  });

  it("gives the product's own limits the rows they ask for, or nearly", () => {
    // The bell (3), the alert page of 10 and 20 (11 and 21: one more tells whether a next page
    // exists), the default page (51), the newest readings (1, 100).
    expect([3, 11, 21, 51, 1, 100].map(limitTier)).toEqual([3, 12, 24, 56, 1, 112]);
  });

  it('is its own tier, never falls as the limit grows, and makes 49 statements up to 10,000', () => {
    let last = 0;
    for (const n of upTo(10_000)) {
      const tier = limitTier(n);
      expect(limitTier(tier)).toBe(tier);
      expect(tier).toBeGreaterThanOrEqual(last);
      last = tier;
    }
    expect(new Set(upTo(10_000).map(limitTier)).size).toBe(49);
    expect(limitTier(0)).toBe(1);
  });

  it('perLimitTier makes one value a tier', () => {
    const made: number[] = [];
    const of = perLimitTier((tier) => {
      made.push(tier);
      return { tier };
    });
    expect(of(21)).toBe(of(23));
    expect(of(21).tier).toBe(24);
    expect(of(25).tier).toBe(28);
    expect(made).toEqual([24, 28]);
  });
});
