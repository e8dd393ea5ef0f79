import {
  asView,
  type BleDateTime,
  DATE_TIME_LENGTH,
  type Parsed,
  readDateTime,
  readSfloat,
  readUint24,
  refused,
} from './ieee11073.ts';

/** PLX Spot-Check Measurement (0x2A5E) flags, Pulse Oximeter Service 1.0.1 §3.1.1.1. */
export const SPOT_CHECK_FLAGS = {
  timeStamp: 0x01,
  measurementStatus: 0x02,
  deviceAndSensorStatus: 0x04,
  pulseAmplitudeIndex: 0x08,
  deviceClockNotSet: 0x10,
} as const;

/** PLX Continuous Measurement (0x2A5F) flags, Pulse Oximeter Service 1.0.1 §3.2.1.1. */
export const CONTINUOUS_FLAGS = {
  fast: 0x01,
  slow: 0x02,
  measurementStatus: 0x04,
  deviceAndSensorStatus: 0x08,
  pulseAmplitudeIndex: 0x10,
} as const;

/** Measurement Status bits that make a value unusable: it is dropped, not stored. */
export const MEASUREMENT_STATUS = {
  measurementOngoing: 1 << 5,
  earlyEstimate: 1 << 6,
  validated: 1 << 7,
  fullyQualified: 1 << 8,
  fromStorage: 1 << 9,
  demonstration: 1 << 10,
  testing: 1 << 11,
  calibrationOngoing: 1 << 12,
  unavailable: 1 << 13,
  questionable: 1 << 14,
  invalid: 1 << 15,
} as const;

/** Device and Sensor Status bits that mean the sensor is not measuring the wearer. */
export const SENSOR_STATUS = {
  equipmentMalfunction: 1 << 1,
  sensorUnconnected: 1 << 11,
  sensorDisplaced: 1 << 13,
  sensorMalfunctioning: 1 << 14,
  sensorDisconnected: 1 << 15,
} as const;

const UNUSABLE_MEASUREMENT =
  MEASUREMENT_STATUS.demonstration |
  MEASUREMENT_STATUS.testing |
  MEASUREMENT_STATUS.calibrationOngoing |
  MEASUREMENT_STATUS.unavailable |
  MEASUREMENT_STATUS.questionable |
  MEASUREMENT_STATUS.invalid;
const UNUSABLE_SENSOR = Object.values(SENSOR_STATUS).reduce((all, bit) => all | bit, 0);

export interface PlxMeasurement {
  /** Percent; absent when the oximeter sent NaN / NRes / ±INF. */
  spo2?: number;
  /** Pulse rate, beats per minute; absent like `spo2`. */
  pulseRate?: number;
  /** Only on a spot-check with a known time and the device clock set. */
  timeStamp?: BleDateTime;
  measurementStatus?: number;
  deviceAndSensorStatus?: number;
  pulseAmplitudeIndex?: number;
  /**
   * Why the values must not be stored (`invalid`, `questionable`, `unavailable`, a test or
   * demonstration, calibration, or the sensor off the finger), or `undefined` when they may.
   */
  unusable?: string;
}

const statusReason = (measurement?: number, sensor?: number): string | undefined => {
  if (measurement !== undefined && measurement & UNUSABLE_MEASUREMENT) {
    const names = Object.entries(MEASUREMENT_STATUS)
      .filter(([, bit]) => bit & UNUSABLE_MEASUREMENT && measurement & bit)
      .map(([name]) => name);
    return `measurement status: ${names.join(', ')}`;
  }
  if (sensor !== undefined && sensor & UNUSABLE_SENSOR) {
    const names = Object.entries(SENSOR_STATUS)
      .filter(([, bit]) => sensor & bit)
      .map(([name]) => name);
    return `device and sensor status: ${names.join(', ')}`;
  }
  return undefined;
};

/** Reads the optional status fields and the pulse amplitude index, shared by both characteristics. */
function readStatusFields(
  view: DataView,
  start: number,
  has: { measurementStatus: boolean; sensorStatus: boolean; pai: boolean },
): Parsed<Pick<PlxMeasurement, 'measurementStatus' | 'deviceAndSensorStatus' | 'pulseAmplitudeIndex'>> {
  let offset = start;
  const fields: Pick<PlxMeasurement, 'measurementStatus' | 'deviceAndSensorStatus' | 'pulseAmplitudeIndex'> =
    {};
  if (has.measurementStatus) {
    if (view.byteLength < offset + 2) return refused('truncated measurement status');
    fields.measurementStatus = view.getUint16(offset, true);
    offset += 2;
  }
  if (has.sensorStatus) {
    if (view.byteLength < offset + 3) return refused('truncated device and sensor status');
    fields.deviceAndSensorStatus = readUint24(view, offset);
    offset += 3;
  }
  if (has.pai) {
    if (view.byteLength < offset + 2) return refused('truncated pulse amplitude index');
    const pai = readSfloat(view, offset);
    if (pai !== undefined) fields.pulseAmplitudeIndex = pai;
    offset += 2;
  }
  if (offset !== view.byteLength) return refused('bytes past the announced fields');
  return { ok: true, value: fields };
}

function finish(
  values: Pick<PlxMeasurement, 'spo2' | 'pulseRate' | 'timeStamp'>,
  fields: Pick<PlxMeasurement, 'measurementStatus' | 'deviceAndSensorStatus' | 'pulseAmplitudeIndex'>,
): Parsed<PlxMeasurement> {
  const measurement: PlxMeasurement = { ...fields };
  if (values.spo2 !== undefined) measurement.spo2 = values.spo2;
  if (values.pulseRate !== undefined) measurement.pulseRate = values.pulseRate;
  if (values.timeStamp) measurement.timeStamp = values.timeStamp;
  const unusable = statusReason(fields.measurementStatus, fields.deviceAndSensorStatus);
  if (unusable) measurement.unusable = unusable;
  return { ok: true, value: measurement };
}

/** Parses a PLX Spot-Check Measurement indication; refuses a truncated or over-long packet. */
export function parsePlxSpotCheck(data: DataView | Uint8Array | ArrayBuffer): Parsed<PlxMeasurement> {
  const view = asView(data);
  if (view.byteLength < 5) return refused('truncated SpO2 and pulse rate');
  const flags = view.getUint8(0);
  let offset = 5;
  let timeStamp: BleDateTime | undefined;
  if (flags & SPOT_CHECK_FLAGS.timeStamp) {
    if (view.byteLength < offset + DATE_TIME_LENGTH) return refused('truncated time stamp');
    // A clock the device says is not set gives a time that means nothing: the gateway's is used.
    if (!(flags & SPOT_CHECK_FLAGS.deviceClockNotSet)) timeStamp = readDateTime(view, offset);
    offset += DATE_TIME_LENGTH;
  }
  const fields = readStatusFields(view, offset, {
    measurementStatus: (flags & SPOT_CHECK_FLAGS.measurementStatus) !== 0,
    sensorStatus: (flags & SPOT_CHECK_FLAGS.deviceAndSensorStatus) !== 0,
    pai: (flags & SPOT_CHECK_FLAGS.pulseAmplitudeIndex) !== 0,
  });
  if (!fields.ok) return fields;
  return finish({ spo2: readSfloat(view, 1), pulseRate: readSfloat(view, 3), timeStamp }, fields.value);
}

/**
 * Parses a PLX Continuous Measurement notification. The normal SpO2PR pair is the one kept; the
 * fast and slow pairs are read past (their length is checked).
 */
export function parsePlxContinuous(data: DataView | Uint8Array | ArrayBuffer): Parsed<PlxMeasurement> {
  const view = asView(data);
  if (view.byteLength < 5) return refused('truncated SpO2 and pulse rate');
  const flags = view.getUint8(0);
  let offset = 5;
  for (const pair of [CONTINUOUS_FLAGS.fast, CONTINUOUS_FLAGS.slow]) {
    if (!(flags & pair)) continue;
    if (view.byteLength < offset + 4) return refused('truncated fast or slow SpO2PR');
    offset += 4;
  }
  const fields = readStatusFields(view, offset, {
    measurementStatus: (flags & CONTINUOUS_FLAGS.measurementStatus) !== 0,
    sensorStatus: (flags & CONTINUOUS_FLAGS.deviceAndSensorStatus) !== 0,
    pai: (flags & CONTINUOUS_FLAGS.pulseAmplitudeIndex) !== 0,
  });
  if (!fields.ok) return fields;
  return finish({ spo2: readSfloat(view, 1), pulseRate: readSfloat(view, 3) }, fields.value);
}
