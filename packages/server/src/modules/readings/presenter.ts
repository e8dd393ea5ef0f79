import type { HealthHistory, HealthRecord, HistoryBucket } from '@vitalwatch/shared';
import { JsonData } from '../../http/contract-routes.ts';

/** The fields of a stored reading the API shows; `createdAt` is when the device recorded it. */
export interface ReadingFacts {
  id: bigint | string;
  deviceId: string;
  recordedAt: Date;
  spo2: number | null;
  heartRate: number | null;
  temperature: number | null;
  battery: number | null;
}

export const presentHealthRecord = (r: ReadingFacts): HealthRecord => ({
  _id: String(r.id),
  device: r.deviceId,
  spo2: r.spo2,
  heartRate: r.heartRate,
  temperature: r.temperature,
  battery: r.battery,
  createdAt: r.recordedAt.toISOString(),
});

/** Each bucket's JSON text, written once per bucket object: the history cache hands out its kept ones again. */
const bucketJson = new WeakMap<HistoryBucket, string>();

const jsonOfBucket = (b: HistoryBucket): string => {
  let json = bucketJson.get(b);
  if (json === undefined) {
    json = JSON.stringify(b);
    bucketJson.set(b, json);
  }
  return json;
};

/**
 * A history reply's data as JSON text, its finished buckets' text written once (`HistoryBucketCache`
 * keeps their objects): serialising a 24 h chart's 480 buckets on every read was 0.5 ms of the
 * server's thread, more than the rest of the read. The fields in the response schema's order; the
 * buckets are built with exactly its keys (`asBuckets`). `history-json.test.ts` checks the bytes are
 * the compiled serialiser's; `health-history.test.ts` checks each reply against the schema.
 */
export const historyJson = (h: HealthHistory): JsonData<HealthHistory> =>
  new JsonData(
    `{"resolution":${JSON.stringify(h.resolution)},"bucketSeconds":${h.bucketSeconds},"from":${JSON.stringify(h.from)},"to":${JSON.stringify(h.to)},"buckets":[${h.buckets.map(jsonOfBucket).join(',')}],"summary":${JSON.stringify(h.summary)}}`,
  );
