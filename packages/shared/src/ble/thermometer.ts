import {
  asView,
  type BleDateTime,
  DATE_TIME_LENGTH,
  type Parsed,
  readDateTime,
  readFloat,
  refused,
} from './ieee11073.ts';

/** Temperature Measurement (0x2A1C) flags, Health Thermometer Service 1.0 §3.1.1.1. */
export const TEMPERATURE_FLAGS = { fahrenheit: 0x01, timeStamp: 0x02, temperatureType: 0x04 } as const;

export interface TemperatureMeasurement {
  /** Always °F, the unit readings are stored in (converted when the thermometer sent °C). */
  fahrenheit: number;
  /** The unit the thermometer sent. */
  sentIn: 'C' | 'F';
  timeStamp?: BleDateTime;
  /** Temperature Type (0x2A1D) code: 1 armpit, 2 body, 3 ear, 4 finger, 6 mouth, 9 tympanum, … */
  temperatureType?: number;
}

/**
 * Parses a Temperature Measurement indication. Refuses a truncated packet and a FLOAT that is no
 * number (NaN, NRes, ±INF): a thermometer sends those while it cannot measure.
 */
export function parseTemperatureMeasurement(
  data: DataView | Uint8Array | ArrayBuffer,
): Parsed<TemperatureMeasurement> {
  const view = asView(data);
  if (view.byteLength < 5) return refused('truncated temperature');
  const flags = view.getUint8(0);
  const value = readFloat(view, 1);
  if (value === undefined) return refused('temperature is not a number');
  const sentIn = flags & TEMPERATURE_FLAGS.fahrenheit ? 'F' : 'C';
  const fahrenheit = sentIn === 'F' ? value : Math.round(((value * 9) / 5 + 32) * 100) / 100;
  const measurement: TemperatureMeasurement = { fahrenheit, sentIn };
  let offset = 5;
  if (flags & TEMPERATURE_FLAGS.timeStamp) {
    if (view.byteLength < offset + DATE_TIME_LENGTH) return refused('truncated time stamp');
    const timeStamp = readDateTime(view, offset);
    if (timeStamp) measurement.timeStamp = timeStamp;
    offset += DATE_TIME_LENGTH;
  }
  if (flags & TEMPERATURE_FLAGS.temperatureType) {
    if (view.byteLength < offset + 1) return refused('truncated temperature type');
    measurement.temperatureType = view.getUint8(offset);
    offset += 1;
  }
  if (offset !== view.byteLength) return refused('bytes past the announced fields');
  return { ok: true, value: measurement };
}
