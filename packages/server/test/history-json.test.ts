import { type HealthHistory, healthHistoryResponse } from '@vitalwatch/shared';
import { describe, expect, it } from 'vitest';
import { compileResponse } from '../src/http/compiled-serializer.ts';
import { historyJson } from '../src/modules/readings/presenter.ts';

const compiled = compileResponse(healthHistoryResponse);
const envelope = (json: string) => `{"success":true,"message":"Health history fetched","data":${json}}`;

const history = (): HealthHistory => ({
  resolution: 'minute',
  bucketSeconds: 180,
  from: '2026-11-27T10:00:00.000Z',
  to: '2026-11-28T10:00:00.000Z',
  buckets: [
    {
      t: '2026-11-27T10:00:00.000Z',
      readings: 180,
      spo2: [94, 96.33, 99, 180],
      heartRate: [61, 72.5, 90, 179],
      temperature: [97.7, 98.12, 98.6, 180],
      battery: null,
    },
    {
      t: '2026-11-27T10:03:00.000Z',
      readings: 1,
      spo2: null,
      heartRate: [0, 0.1, 1e21, 1],
      temperature: null,
      battery: [5, 5, 5, 1],
    },
  ],
  summary: {
    readings: 181,
    spo2: [94, 96.334444, 99, 180],
    heartRate: null,
    temperature: null,
    battery: [5, 5, 5, 1],
  },
});

describe('a history reply written with its buckets’ text kept', () => {
  it('writes the bytes the response schema’s compiled serialiser writes', () => {
    if ('reason' in compiled) throw new Error(compiled.reason);
    for (const h of [
      history(),
      { ...history(), resolution: 'raw' as const, bucketSeconds: 0 },
      { ...history(), buckets: [] },
    ]) {
      const data = { success: true, message: 'Health history fetched', data: h };
      expect(envelope(historyJson(h).json)).toBe(compiled.stringify(data));
      expect(healthHistoryResponse.parse(JSON.parse(envelope(historyJson(h).json)))).toEqual(data);
    }
  });

  it('writes a bucket object once: the same object again is its kept text (the cache’s buckets never change)', () => {
    const h = history();
    const first = historyJson(h).json;
    h.buckets[0]!.readings = 7;
    expect(historyJson(h).json).toBe(first);
    // A new object (a bucket read afresh) is written anew.
    h.buckets[0] = { ...h.buckets[0]! };
    expect(historyJson(h).json).toContain('"readings":7');
  });
});
