import type { HealthRecord } from '@vitalwatch/shared';

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
