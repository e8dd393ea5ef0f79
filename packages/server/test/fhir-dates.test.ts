import { describe, expect, it } from 'vitest';
import { dateSearch, isoMicros, rangeOf } from '../src/modules/fhir/dates.ts';

const us = (iso: string) => BigInt(Date.parse(iso)) * 1000n;
const range = (written: string) => {
  const r = rangeOf(written);
  return r && [isoMicros(r.from), isoMicros(r.to)];
};

describe('FHIR date values as ranges of their precision', () => {
  it('gives a year, a month, a day, a minute, a second and a fraction their whole range', () => {
    expect(range('2026')).toEqual(['2026-01-01T00:00:00.000000Z', '2027-01-01T00:00:00.000000Z']);
    expect(range('2024-02')).toEqual(['2024-02-01T00:00:00.000000Z', '2024-03-01T00:00:00.000000Z']);
    expect(range('2026-12')).toEqual(['2026-12-01T00:00:00.000000Z', '2027-01-01T00:00:00.000000Z']);
    expect(range('2026-11-24')).toEqual(['2026-11-24T00:00:00.000000Z', '2026-11-25T00:00:00.000000Z']);
    expect(range('2026-11-24T10:00Z')).toEqual([
      '2026-11-24T10:00:00.000000Z',
      '2026-11-24T10:01:00.000000Z',
    ]);
    expect(range('2026-11-24T10:00:05Z')).toEqual([
      '2026-11-24T10:00:05.000000Z',
      '2026-11-24T10:00:06.000000Z',
    ]);
    expect(range('2026-11-24T10:00:05.5Z')).toEqual([
      '2026-11-24T10:00:05.500000Z',
      '2026-11-24T10:00:05.600000Z',
    ]);
    expect(range('2026-11-24T10:00:05.123456789Z')).toEqual([
      '2026-11-24T10:00:05.123456Z',
      '2026-11-24T10:00:05.123457Z',
    ]);
    expect(range('2026-11-24T10:00:00+14:00')?.[0]).toBe('2026-11-23T20:00:00.000000Z');
    expect(range('2026-11-24T10:00:00-03:30')?.[0]).toBe('2026-11-24T13:30:00.000000Z');
    expect(range('2026-11-24T10:00:00')?.[0]).toBe('2026-11-24T10:00:00.000000Z');
    expect(range('0001-01-01')?.[0]).toBe('0001-01-01T00:00:00.000000Z');
    expect(range('9999-12')?.[1]).toBe('10000-01-01T00:00:00.000000Z');
  });

  it('refuses what is not a FHIR date', () => {
    for (const bad of [
      '2026-02-29',
      '2026-13',
      '2026-11-31',
      '0000',
      '2026-11-24T24:00Z',
      '2026-11-24T10:00:00+15:00',
    ])
      expect(rangeOf(bad), bad).toBeUndefined();
    expect(rangeOf('2024-02-29')).toBeDefined();
  });

  it('combines prefixes, AND across parameters and OR within one', () => {
    const day = { from: us('2026-11-24T00:00:00Z'), to: us('2026-11-25T00:00:00Z') };
    expect(dateSearch(['2026-11-24'])).toEqual([day]);
    expect(dateSearch(['ge2026-11-24', 'le2026-11-24'])).toEqual([day]);
    expect(dateSearch(['gt2026-11-24'])).toEqual([{ from: day.to, to: null }]);
    expect(dateSearch(['lt2026-11-24'])).toEqual([{ from: null, to: day.from }]);
    expect(dateSearch(['ne2026-11-24'])).toEqual([
      { from: null, to: day.from },
      { from: day.to, to: null },
    ]);
    expect(dateSearch(['2026-11-23,2026-11-24'])).toEqual([{ from: us('2026-11-23T00:00:00Z'), to: day.to }]);
    expect(dateSearch(['ge2026-11-25', 'lt2026-11-24'])).toEqual([]);
    expect(dateSearch([])).toEqual([{ from: null, to: null }]);
    expect(dateSearch(['ap2026-11-24'])).toMatch(/ap is not supported/);
  });
});
