import { asView, type Parsed, refused } from './ieee11073.ts';

/** Heart Rate Measurement (0x2A37) flags, Heart Rate Service 1.0 §3.1.1.1. */
export const HRM_FLAGS = {
  /** 0: the value is a uint8, 1: a uint16. */
  value16: 0x01,
  /** Sensor Contact Status: contact detected (meaningful only with `contactSupported`). */
  contactDetected: 0x02,
  contactSupported: 0x04,
  energyExpended: 0x08,
  rrIntervals: 0x10,
} as const;

export interface HeartRateMeasurement {
  /** Beats per minute. */
  heartRate: number;
  /** `unsupported` when the strap cannot tell; `lost` when it can and the skin contact is lost. */
  contact: 'unsupported' | 'detected' | 'lost';
  /** Kilojoules since the last reset, when the strap sends it. */
  energyExpended?: number;
  /** Beat-to-beat intervals in seconds (sent in 1/1024 s), oldest first. */
  rrIntervals: number[];
}

/**
 * Parses a Heart Rate Measurement notification. Refuses (never throws) a packet shorter than its
 * flags announce, or whose RR-interval part is not whole uint16 values.
 */
export function parseHeartRateMeasurement(
  data: DataView | Uint8Array | ArrayBuffer,
): Parsed<HeartRateMeasurement> {
  const view = asView(data);
  if (view.byteLength < 1) return refused('empty packet');
  const flags = view.getUint8(0);
  let offset = 1;
  const valueSize = flags & HRM_FLAGS.value16 ? 2 : 1;
  if (view.byteLength < offset + valueSize) return refused('truncated heart rate value');
  const heartRate = valueSize === 2 ? view.getUint16(offset, true) : view.getUint8(offset);
  offset += valueSize;
  const contact =
    flags & HRM_FLAGS.contactSupported
      ? flags & HRM_FLAGS.contactDetected
        ? 'detected'
        : 'lost'
      : 'unsupported';
  const measurement: HeartRateMeasurement = { heartRate, contact, rrIntervals: [] };
  if (flags & HRM_FLAGS.energyExpended) {
    if (view.byteLength < offset + 2) return refused('truncated energy expended');
    measurement.energyExpended = view.getUint16(offset, true);
    offset += 2;
  }
  if (flags & HRM_FLAGS.rrIntervals) {
    const rest = view.byteLength - offset;
    if (rest === 0 || rest % 2 !== 0) return refused('RR intervals are not whole uint16 values');
    for (; offset < view.byteLength; offset += 2) {
      measurement.rrIntervals.push(view.getUint16(offset, true) / 1024);
    }
  } else if (offset !== view.byteLength) {
    return refused('bytes past the announced fields');
  }
  return { ok: true, value: measurement };
}
