import { PLAUSIBLE_RANGES } from '../constants.ts';
import { parseBatteryLevel } from './battery.ts';
import { parseHeartRateMeasurement } from './heart-rate.ts';
import type { BleDateTime, Parsed } from './ieee11073.ts';
import { parsePlxContinuous, parsePlxSpotCheck } from './pulse-oximeter.ts';
import { parseTemperatureMeasurement } from './thermometer.ts';

/** 16-bit UUIDs of the Bluetooth SIG services the gateway reads (Assigned Numbers §3.4). */
export const BLE_SERVICES = {
  heartRate: 0x180d,
  pulseOximeter: 0x1822,
  healthThermometer: 0x1809,
  battery: 0x180f,
  deviceInformation: 0x180a,
} as const;

/** 16-bit UUIDs of the characteristics (Assigned Numbers §3.8). */
export const BLE_CHARACTERISTICS = {
  heartRateMeasurement: 0x2a37,
  plxSpotCheck: 0x2a5e,
  plxContinuous: 0x2a5f,
  temperatureMeasurement: 0x2a1c,
  batteryLevel: 0x2a19,
  manufacturerName: 0x2a29,
  modelNumber: 0x2a24,
} as const;

/** The full 128-bit UUID of a SIG 16-bit one, as Web Bluetooth names it. */
export const bleUuid = (short: number): string =>
  `0000${short.toString(16).padStart(4, '0')}-0000-1000-8000-00805f9b34fb`;

/** What one packet adds to a reading: vitals in the stored units, and the wearable's own time if sent. */
export interface BleValues {
  spo2?: number;
  heartRate?: number;
  temperature?: number;
  battery?: number;
  deviceTime?: BleDateTime;
}

/** A packet: its values, nothing to store with why (a status said so), or refused as malformed. */
export type BleOutcome =
  | { kind: 'values'; values: BleValues }
  | { kind: 'dropped'; reason: string }
  | { kind: 'refused'; reason: string };

type Vital = keyof typeof PLAUSIBLE_RANGES;
const plausible = (vital: Vital, value: number | undefined): value is number =>
  value !== undefined && value >= PLAUSIBLE_RANGES[vital].min && value <= PLAUSIBLE_RANGES[vital].max;

/** Keeps the values the ingestion schema accepts; a packet with none left is dropped. */
function kept(values: BleValues): BleOutcome {
  const out: BleValues = {};
  for (const vital of ['spo2', 'heartRate', 'temperature', 'battery'] as const) {
    const value = values[vital];
    if (plausible(vital, value)) out[vital] = value;
  }
  if (Object.keys(out).length === 0) return { kind: 'dropped', reason: 'no value in the accepted ranges' };
  if (values.deviceTime) out.deviceTime = values.deviceTime;
  return { kind: 'values', values: out };
}

function outcome<T>(parsed: Parsed<T>, toValues: (value: T) => BleOutcome): BleOutcome {
  return parsed.ok ? toValues(parsed.value) : { kind: 'refused', reason: parsed.reason };
}

/**
 * One notification or indication of a measurement characteristic, as what a reading gets from it.
 * Heart rate with the skin contact lost, and oximeter values whose status says invalid,
 * questionable, unavailable, test, demonstration or sensor off, are dropped: a carer must not be
 * alarmed (or reassured) by them.
 */
export function bleReadingValues(
  characteristic: number,
  data: DataView | Uint8Array | ArrayBuffer,
): BleOutcome {
  switch (characteristic) {
    case BLE_CHARACTERISTICS.heartRateMeasurement:
      return outcome(parseHeartRateMeasurement(data), (m) =>
        m.contact === 'lost'
          ? { kind: 'dropped', reason: 'sensor contact lost' }
          : kept({ heartRate: m.heartRate }),
      );
    case BLE_CHARACTERISTICS.plxContinuous:
    case BLE_CHARACTERISTICS.plxSpotCheck: {
      const parse =
        characteristic === BLE_CHARACTERISTICS.plxContinuous ? parsePlxContinuous : parsePlxSpotCheck;
      return outcome(parse(data), (m) =>
        m.unusable
          ? { kind: 'dropped', reason: m.unusable }
          : kept({ spo2: m.spo2, heartRate: m.pulseRate, deviceTime: m.timeStamp }),
      );
    }
    case BLE_CHARACTERISTICS.temperatureMeasurement:
      return outcome(parseTemperatureMeasurement(data), (m) =>
        kept({ temperature: m.fahrenheit, deviceTime: m.timeStamp }),
      );
    case BLE_CHARACTERISTICS.batteryLevel:
      return outcome(parseBatteryLevel(data), (level) => kept({ battery: level }));
    default:
      return { kind: 'refused', reason: `characteristic 0x${characteristic.toString(16)} is not read` };
  }
}

/** A Device Information string (Manufacturer Name, Model Number): UTF-8, trailing NULs cut, ≤ 100 chars. */
export function bleString(data: DataView | Uint8Array | ArrayBuffer): string | undefined {
  const bytes =
    data instanceof DataView
      ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      : data instanceof Uint8Array
        ? data
        : new Uint8Array(data);
  const escaped = Array.from(bytes, (b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  let text: string;
  try {
    text = decodeURIComponent(escaped);
  } catch {
    // Not UTF-8: read byte by byte rather than refuse a name.
    text = String.fromCharCode(...bytes);
  }
  text = text.replace(/\0+$/, '').trim();
  return text ? text.slice(0, 100) : undefined;
}
