import { describe, expect, it } from 'vitest';
import {
  CALENDAR_CELLS,
  calendarCells,
  canApply,
  EMPTY_RANGE,
  formatDate,
  inRange,
  pickDate,
  rangeQuery,
  shiftMonth,
} from '@/features/alerts/utils/date-range.ts';

const day = (y: number, m: number, d: number) => new Date(y, m - 1, d);

describe('calendarCells', () => {
  it('always gives 42 days starting on the Sunday on or before the 1st', () => {
    for (let month = 0; month < 12; month++) {
      const cells = calendarCells(2026, month);
      expect(cells).toHaveLength(CALENDAR_CELLS);
      expect(cells[0]!.getDay()).toBe(0);
      const first = cells.findIndex((c) => c.getDate() === 1 && c.getMonth() === month);
      expect(first).toBe(new Date(2026, month, 1).getDay());
      // Consecutive days, no gaps or repeats (also across a DST change).
      for (let i = 1; i < cells.length; i++) {
        const prev = cells[i - 1]!;
        expect(cells[i]).toEqual(new Date(prev.getFullYear(), prev.getMonth(), prev.getDate() + 1));
      }
    }
  });

  it('starts on the 1st itself when the month begins on a Sunday (February 2026)', () => {
    const cells = calendarCells(2026, 1);
    expect(cells[0]).toEqual(day(2026, 2, 1));
    expect(cells[41]).toEqual(day(2026, 3, 14));
  });
});

describe('pickDate', () => {
  it('sets From, then To', () => {
    const one = pickDate(EMPTY_RANGE, day(2026, 5, 10));
    expect(one).toEqual({ from: day(2026, 5, 10), to: null });
    expect(pickDate(one, day(2026, 5, 12))).toEqual({ from: day(2026, 5, 10), to: day(2026, 5, 12) });
  });

  it('swaps when the second pick is before the start', () => {
    const one = pickDate(EMPTY_RANGE, day(2026, 5, 10));
    expect(pickDate(one, day(2026, 5, 3))).toEqual({ from: day(2026, 5, 3), to: day(2026, 5, 10) });
  });

  it('allows a single-day range and starts over once both ends are set', () => {
    const single = pickDate(pickDate(EMPTY_RANGE, day(2026, 5, 10)), day(2026, 5, 10));
    expect(single).toEqual({ from: day(2026, 5, 10), to: day(2026, 5, 10) });
    expect(pickDate(single, day(2026, 6, 1))).toEqual({ from: day(2026, 6, 1), to: null });
  });

  it('ignores the time of day of the click', () => {
    expect(pickDate(EMPTY_RANGE, new Date(2026, 4, 10, 17, 45)).from).toEqual(day(2026, 5, 10));
  });
});

describe('range helpers', () => {
  it('applies only with both dates', () => {
    expect(canApply(EMPTY_RANGE)).toBe(false);
    expect(canApply({ from: day(2026, 1, 1), to: null })).toBe(false);
    expect(canApply({ from: day(2026, 1, 1), to: day(2026, 1, 2) })).toBe(true);
  });

  it('formats dd/mm/yyyy', () => {
    expect(formatDate(day(2026, 3, 7))).toBe('07/03/2026');
    expect(formatDate(day(2025, 12, 31))).toBe('31/12/2025');
  });

  it('knows which days are inside the range, ends included', () => {
    const range = { from: day(2026, 5, 3), to: day(2026, 5, 10) };
    expect(inRange(day(2026, 5, 3), range)).toBe(true);
    expect(inRange(new Date(2026, 4, 10, 23, 59), range)).toBe(true);
    expect(inRange(day(2026, 5, 11), range)).toBe(false);
    expect(inRange(day(2026, 5, 5), { from: day(2026, 5, 3), to: null })).toBe(false);
  });

  it('queries from the start of From to the last millisecond of To, local time', () => {
    const q = rangeQuery({ from: day(2026, 5, 3), to: day(2026, 5, 10) });
    expect(new Date(q.from!)).toEqual(day(2026, 5, 3));
    expect(new Date(q.to!)).toEqual(new Date(2026, 4, 10, 23, 59, 59, 999));
    expect(rangeQuery(EMPTY_RANGE)).toEqual({});
  });

  it('moves months across years', () => {
    expect(shiftMonth(2026, 0, -1)).toEqual({ year: 2025, month: 11 });
    expect(shiftMonth(2025, 11, 1)).toEqual({ year: 2026, month: 0 });
  });
});
