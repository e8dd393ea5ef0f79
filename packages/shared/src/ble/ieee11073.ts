/**
 * The number formats and fields that the Bluetooth SIG health profiles share: IEEE-11073 20601
 * SFLOAT (16 bit) and FLOAT (32 bit), and the GATT Date Time characteristic. Pure functions over a
 * DataView; a value that cannot be read returns `undefined` and never throws.
 */

/** What a parser gives: the value, or why the packet was refused. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

export const refused = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

/** SFLOAT mantissas (exponent 0) that are not numbers: NaN, NRes, +INF, reserved, -INF. */
const SFLOAT_SPECIAL = new Set([0x07ff, 0x0800, 0x07fe, 0x0801, 0x0802]);
/** FLOAT mantissas (exponent 0) that are not numbers: NaN, NRes, +INF, reserved, -INF. */
const FLOAT_SPECIAL = new Set([0x7fffff, 0x800000, 0x7ffffe, 0x800001, 0x800002]);

/** Rounds away the binary noise of `mantissa × 10^exponent` (97 × 10⁻¹ is 9.700000000000001). */
const scaled = (mantissa: number, exponent: number): number =>
  Number.parseFloat((mantissa * 10 ** exponent).toPrecision(12));

/** IEEE-11073 16-bit SFLOAT: 4-bit signed exponent, 12-bit signed mantissa, little-endian. */
export function readSfloat(view: DataView, offset: number): number | undefined {
  if (offset + 2 > view.byteLength) return undefined;
  const raw = view.getUint16(offset, true);
  const rawMantissa = raw & 0x0fff;
  if (SFLOAT_SPECIAL.has(rawMantissa)) return undefined;
  const mantissa = rawMantissa >= 0x0800 ? rawMantissa - 0x1000 : rawMantissa;
  const rawExponent = raw >> 12;
  const exponent = rawExponent >= 0x8 ? rawExponent - 0x10 : rawExponent;
  return scaled(mantissa, exponent);
}

/** IEEE-11073 32-bit FLOAT: 8-bit signed exponent, 24-bit signed mantissa, little-endian. */
export function readFloat(view: DataView, offset: number): number | undefined {
  if (offset + 4 > view.byteLength) return undefined;
  const raw = view.getUint32(offset, true);
  const rawMantissa = raw & 0xffffff;
  if (FLOAT_SPECIAL.has(rawMantissa)) return undefined;
  const mantissa = rawMantissa >= 0x800000 ? rawMantissa - 0x1000000 : rawMantissa;
  const exponent = view.getInt8(offset + 3);
  return scaled(mantissa, exponent);
}

/** A GATT Date Time (0x2A08): local time of the device, without a zone. */
export interface BleDateTime {
  year: number;
  month: number;
  day: number;
  hours: number;
  minutes: number;
  seconds: number;
}

export const DATE_TIME_LENGTH = 7;

/**
 * The Date Time at `offset`, or `undefined` when any part is "not known" (0 for year, month or
 * day) or out of range: the gateway then stamps the reading with its own clock.
 */
export function readDateTime(view: DataView, offset: number): BleDateTime | undefined {
  if (offset + DATE_TIME_LENGTH > view.byteLength) return undefined;
  const value = {
    year: view.getUint16(offset, true),
    month: view.getUint8(offset + 2),
    day: view.getUint8(offset + 3),
    hours: view.getUint8(offset + 4),
    minutes: view.getUint8(offset + 5),
    seconds: view.getUint8(offset + 6),
  };
  const known =
    value.year >= 1582 &&
    value.year <= 9999 &&
    value.month >= 1 &&
    value.month <= 12 &&
    value.day >= 1 &&
    value.day <= 31 &&
    value.hours <= 23 &&
    value.minutes <= 59 &&
    value.seconds <= 59;
  return known ? value : undefined;
}

/** A little-endian unsigned 24-bit integer (the PLX Device and Sensor Status). */
export const readUint24 = (view: DataView, offset: number): number =>
  view.getUint16(offset, true) | (view.getUint8(offset + 2) << 16);

/** A DataView over whatever a characteristic gave (a DataView already, or bytes). */
export const asView = (data: DataView | Uint8Array | ArrayBuffer): DataView =>
  data instanceof DataView
    ? data
    : data instanceof Uint8Array
      ? new DataView(data.buffer, data.byteOffset, data.byteLength)
      : new DataView(data);
