/**
 * An Observation is one vital of one stored reading. Its id names the device, the reading's time
 * (microseconds since the epoch) and id, and the vital, so that a read finds the reading through
 * the (device, time) index in one partition:
 * `<device uuid, hex>-<time, base 36>-<reading id, base 36>-<vital>`, at most 63 characters
 * (FHIR ids take 64). The same key orders a search and is its paging cursor.
 */

/** The vitals that are Observations, in the order a reading lists them. */
export const VITAL_SUFFIXES = ['spo2', 'hr', 'temp'] as const;
export type VitalSuffix = (typeof VITAL_SUFFIXES)[number];

export interface ObservationKey {
  deviceId: string;
  /** The reading's recorded_at, microseconds since the epoch. */
  at: bigint;
  readingId: bigint;
  vital: VitalSuffix;
}

const MAX_BIGINT = 2n ** 63n - 1n;
/** Years 1 to 9999, in microseconds: what a FHIR dateTime can say (and PostgreSQL can store). */
const FIRST_AT = -62_135_596_800_000_000n;
const END_AT = 253_402_300_800_000_000n;
const ID = /^([0-9a-f]{32})-(-?[0-9a-z]{1,12})-([0-9a-z]{1,13})-(spo2|hr|temp)$/;

export const observationId = (k: ObservationKey) =>
  `${k.deviceId.replaceAll('-', '')}-${k.at.toString(36)}-${k.readingId.toString(36)}-${k.vital}`;

/** Parse a base-36 bigint (BigInt takes no radix). */
function base36(text: string): bigint {
  const negative = text.startsWith('-');
  let value = 0n;
  for (const c of negative ? text.slice(1) : text) value = value * 36n + BigInt(Number.parseInt(c, 36));
  return negative ? -value : value;
}

/** The key of an Observation id this server could have given, or undefined. */
export function parseObservationId(id: string): ObservationKey | undefined {
  const m = ID.exec(id);
  if (!m) return undefined;
  const [, hex, at, reading, vital] = m as unknown as [string, string, string, string, VitalSuffix];
  const readingId = base36(reading);
  const time = base36(at);
  if (readingId > MAX_BIGINT || time < FIRST_AT || time >= END_AT) return undefined;
  const deviceId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { deviceId, at: time, readingId, vital };
}
