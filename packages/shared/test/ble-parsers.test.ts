import { describe, expect, it } from 'vitest';
import {
  BLE_CHARACTERISTICS,
  bleReadingValues,
  bleString,
  CONTINUOUS_FLAGS,
  HRM_FLAGS,
  MEASUREMENT_STATUS,
  parseBatteryLevel,
  parseHeartRateMeasurement,
  parsePlxContinuous,
  parsePlxSpotCheck,
  parseTemperatureMeasurement,
  readFloat,
  readSfloat,
  SENSOR_STATUS,
  SPOT_CHECK_FLAGS,
  TEMPERATURE_FLAGS,
} from '../src/index.ts';
import { bytes, dateTime, everyFlagCombination, float32, sfloat, u8, u16, u24 } from './ble-bytes.ts';

const view = (b: Uint8Array) => new DataView(b.buffer);

/** Every prefix shorter than `minimum`, and the packet with one byte more: all refused, none thrown. */
function expectTruncationsRefused(
  packet: Uint8Array,
  minimum: number,
  parse: (b: Uint8Array) => { ok: boolean },
) {
  for (let length = 0; length < minimum; length++) {
    expect(parse(packet.slice(0, length)).ok, `prefix of ${length} bytes`).toBe(false);
  }
  expect(parse(Uint8Array.from([...packet, 0x00])).ok, 'one byte too many').toBe(false);
}

describe('IEEE-11073 numbers', () => {
  it('reads SFLOAT values with negative exponents and mantissas', () => {
    expect(readSfloat(view(bytes(sfloat(97, 0))), 0)).toBe(97);
    expect(readSfloat(view(bytes(sfloat(975, -1))), 0)).toBe(97.5);
    expect(readSfloat(view(bytes(sfloat(-12, 2))), 0)).toBe(-1200);
    expect(readSfloat(view(bytes(sfloat(2047 - 2, -3))), 0)).toBe(2.045);
  });

  it('gives no number for SFLOAT NaN, NRes, ±INF and reserved, nor past the end', () => {
    for (const special of [0x07ff, 0x0800, 0x07fe, 0x0802, 0x0801]) {
      expect(readSfloat(view(bytes(u16(special))), 0)).toBeUndefined();
    }
    expect(readSfloat(view(bytes([0x61])), 0)).toBeUndefined();
  });

  it('reads FLOAT values and gives no number for its special values', () => {
    expect(readFloat(view(bytes(float32(370, -1))), 0)).toBe(37);
    expect(readFloat(view(bytes(float32(-405, -1))), 0)).toBe(-40.5);
    expect(readFloat(view(bytes(float32(9860, -2))), 0)).toBe(98.6);
    for (const special of [0x7fffff, 0x800000, 0x7ffffe, 0x800002, 0x800001]) {
      expect(readFloat(view(bytes(u24(special), [0])), 0)).toBeUndefined();
    }
  });
});

describe('Heart Rate Measurement 0x2A37', () => {
  it.each(everyFlagCombination(5))('flags 0b%s: every field where the flags put it', (flags) => {
    const value16 = (flags & HRM_FLAGS.value16) !== 0;
    const packet = bytes(
      u8(flags),
      value16 ? u16(260) : u8(72),
      flags & HRM_FLAGS.energyExpended ? u16(1234) : [],
      flags & HRM_FLAGS.rrIntervals ? [...u16(1024), ...u16(512)] : [],
    );
    const parsed = parseHeartRateMeasurement(packet);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.heartRate).toBe(value16 ? 260 : 72);
    const contact =
      flags & HRM_FLAGS.contactSupported
        ? flags & HRM_FLAGS.contactDetected
          ? 'detected'
          : 'lost'
        : 'unsupported';
    expect(parsed.value.contact).toBe(contact);
    expect(parsed.value.energyExpended).toBe(flags & HRM_FLAGS.energyExpended ? 1234 : undefined);
    expect(parsed.value.rrIntervals).toEqual(flags & HRM_FLAGS.rrIntervals ? [1, 0.5] : []);
    const fixed = 1 + (value16 ? 2 : 1) + (flags & HRM_FLAGS.energyExpended ? 2 : 0);
    // With RR intervals, a prefix that keeps whole intervals is a shorter valid packet.
    const minimum = flags & HRM_FLAGS.rrIntervals ? fixed + 2 : packet.length;
    expectTruncationsRefused(packet, minimum, parseHeartRateMeasurement);
    if (flags & HRM_FLAGS.rrIntervals)
      expect(parseHeartRateMeasurement(packet.slice(0, fixed + 3)).ok).toBe(false);
  });

  it('drops a beat the strap says it took without skin contact', () => {
    const lost = bytes(u8(HRM_FLAGS.contactSupported), u8(80));
    expect(bleReadingValues(BLE_CHARACTERISTICS.heartRateMeasurement, lost)).toEqual({
      kind: 'dropped',
      reason: 'sensor contact lost',
    });
    const touching = bytes(u8(HRM_FLAGS.contactSupported | HRM_FLAGS.contactDetected), u8(80));
    expect(bleReadingValues(BLE_CHARACTERISTICS.heartRateMeasurement, touching)).toEqual({
      kind: 'values',
      values: { heartRate: 80 },
    });
  });
});

describe('PLX Spot-Check Measurement 0x2A5E', () => {
  it.each(everyFlagCombination(5))('flags %i: every field where the flags put it', (flags) => {
    const packet = bytes(
      u8(flags),
      sfloat(96, 0),
      sfloat(655, -1),
      flags & SPOT_CHECK_FLAGS.timeStamp ? dateTime(2026, 11, 26, 18, 30, 5) : [],
      flags & SPOT_CHECK_FLAGS.measurementStatus ? u16(MEASUREMENT_STATUS.validated) : [],
      flags & SPOT_CHECK_FLAGS.deviceAndSensorStatus ? u24(0) : [],
      flags & SPOT_CHECK_FLAGS.pulseAmplitudeIndex ? sfloat(52, -1) : [],
    );
    const parsed = parsePlxSpotCheck(packet);
    expect(parsed).toMatchObject({ ok: true, value: { spo2: 96, pulseRate: 65.5 } });
    if (!parsed.ok) return;
    const timed = flags & SPOT_CHECK_FLAGS.timeStamp && !(flags & SPOT_CHECK_FLAGS.deviceClockNotSet);
    expect(parsed.value.timeStamp).toEqual(
      timed ? { year: 2026, month: 11, day: 26, hours: 18, minutes: 30, seconds: 5 } : undefined,
    );
    expect(parsed.value.pulseAmplitudeIndex).toBe(
      flags & SPOT_CHECK_FLAGS.pulseAmplitudeIndex ? 5.2 : undefined,
    );
    expect(parsed.value.unusable).toBeUndefined();
    expectTruncationsRefused(packet, packet.length, parsePlxSpotCheck);
  });

  it('keeps no time whose year, month or day is "not known"', () => {
    const packet = bytes(
      u8(SPOT_CHECK_FLAGS.timeStamp),
      sfloat(96, 0),
      sfloat(70, 0),
      dateTime(0, 11, 26, 1, 2, 3),
    );
    const parsed = parsePlxSpotCheck(packet);
    expect(parsed.ok && 'timeStamp' in parsed.value).toBe(false);
  });
});

describe('PLX Continuous Measurement 0x2A5F', () => {
  it.each(everyFlagCombination(5))('flags %i: the normal pair kept, the others read past', (flags) => {
    const packet = bytes(
      u8(flags),
      sfloat(97, 0),
      sfloat(72, 0),
      flags & CONTINUOUS_FLAGS.fast ? [...sfloat(90, 0), ...sfloat(80, 0)] : [],
      flags & CONTINUOUS_FLAGS.slow ? [...sfloat(91, 0), ...sfloat(81, 0)] : [],
      flags & CONTINUOUS_FLAGS.measurementStatus ? u16(MEASUREMENT_STATUS.fullyQualified) : [],
      flags & CONTINUOUS_FLAGS.deviceAndSensorStatus ? u24(0) : [],
      flags & CONTINUOUS_FLAGS.pulseAmplitudeIndex ? sfloat(30, -1) : [],
    );
    const parsed = parsePlxContinuous(packet);
    expect(parsed).toMatchObject({ ok: true, value: { spo2: 97, pulseRate: 72 } });
    expect(bleReadingValues(BLE_CHARACTERISTICS.plxContinuous, packet)).toEqual({
      kind: 'values',
      values: { spo2: 97, heartRate: 72 },
    });
    expectTruncationsRefused(packet, packet.length, parsePlxContinuous);
  });

  it.each([
    ['invalid', MEASUREMENT_STATUS.invalid],
    ['questionable', MEASUREMENT_STATUS.questionable],
    ['unavailable', MEASUREMENT_STATUS.unavailable],
    ['testing', MEASUREMENT_STATUS.testing],
    ['demonstration', MEASUREMENT_STATUS.demonstration],
    ['calibrationOngoing', MEASUREMENT_STATUS.calibrationOngoing],
  ])('drops a value whose measurement status says %s', (name, bit) => {
    const packet = bytes(u8(CONTINUOUS_FLAGS.measurementStatus), sfloat(85, 0), sfloat(72, 0), u16(bit));
    expect(parsePlxContinuous(packet)).toMatchObject({
      ok: true,
      value: { spo2: 85, unusable: `measurement status: ${name}` },
    });
    expect(bleReadingValues(BLE_CHARACTERISTICS.plxContinuous, packet).kind).toBe('dropped');
  });

  it('drops a value taken with the sensor off the finger, keeps one whose status is only informative', () => {
    const off = bytes(
      u8(CONTINUOUS_FLAGS.deviceAndSensorStatus),
      sfloat(85, 0),
      sfloat(72, 0),
      u24(SENSOR_STATUS.sensorDisconnected),
    );
    expect(bleReadingValues(BLE_CHARACTERISTICS.plxContinuous, off)).toEqual({
      kind: 'dropped',
      reason: 'device and sensor status: sensorDisconnected',
    });
    const ongoing = bytes(
      u8(CONTINUOUS_FLAGS.measurementStatus),
      sfloat(88, 0),
      sfloat(72, 0),
      u16(MEASUREMENT_STATUS.measurementOngoing),
    );
    expect(bleReadingValues(BLE_CHARACTERISTICS.plxContinuous, ongoing)).toEqual({
      kind: 'values',
      values: { spo2: 88, heartRate: 72 },
    });
  });

  it('keeps the pulse rate when SpO2 is NaN, and drops a packet with neither', () => {
    const noSpo2 = bytes(u8(0), u16(0x07ff), sfloat(70, 0));
    expect(bleReadingValues(BLE_CHARACTERISTICS.plxContinuous, noSpo2)).toEqual({
      kind: 'values',
      values: { heartRate: 70 },
    });
    const none = bytes(u8(0), u16(0x07ff), u16(0x0800));
    expect(bleReadingValues(BLE_CHARACTERISTICS.plxContinuous, none).kind).toBe('dropped');
  });
});

describe('Temperature Measurement 0x2A1C', () => {
  it.each(everyFlagCombination(3))(
    'flags %i: °C converted to the stored °F, optional fields read',
    (flags) => {
      const fahrenheit = (flags & TEMPERATURE_FLAGS.fahrenheit) !== 0;
      const packet = bytes(
        u8(flags),
        fahrenheit ? float32(9860, -2) : float32(370, -1),
        flags & TEMPERATURE_FLAGS.timeStamp ? dateTime(2026, 1, 2, 3, 4, 5) : [],
        flags & TEMPERATURE_FLAGS.temperatureType ? u8(2) : [],
      );
      const parsed = parseTemperatureMeasurement(packet);
      expect(parsed).toMatchObject({ ok: true, value: { fahrenheit: 98.6, sentIn: fahrenheit ? 'F' : 'C' } });
      if (!parsed.ok) return;
      expect(parsed.value.temperatureType).toBe(flags & TEMPERATURE_FLAGS.temperatureType ? 2 : undefined);
      expect(Boolean(parsed.value.timeStamp)).toBe((flags & TEMPERATURE_FLAGS.timeStamp) !== 0);
      expectTruncationsRefused(packet, packet.length, parseTemperatureMeasurement);
    },
  );

  it('refuses a FLOAT that is not a number', () => {
    expect(parseTemperatureMeasurement(bytes(u8(0), u24(0x7fffff), [0])).ok).toBe(false);
  });
});

describe('Battery Level 0x2A19 and Device Information strings', () => {
  it('reads a percentage and refuses anything else', () => {
    expect(parseBatteryLevel(bytes([87]))).toEqual({ ok: true, value: 87 });
    expect(parseBatteryLevel(bytes([101])).ok).toBe(false);
    expect(parseBatteryLevel(bytes([])).ok).toBe(false);
    expect(parseBatteryLevel(bytes([50, 1])).ok).toBe(false);
  });

  it('decodes UTF-8 names and cuts trailing NULs', () => {
    expect(bleString(new Uint8Array([0x4e, 0x6f, 0x6e, 0x69, 0x6e, 0x0, 0x0]))).toBe('Nonin');
    expect(bleString(Uint8Array.from([0x5a, 0x6f, 0xc3, 0xab]))).toBe('Zoë');
    expect(bleString(new Uint8Array([0, 0]))).toBeUndefined();
  });
});

describe('malformed packets', () => {
  it('refuses random bytes of every characteristic without throwing', () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed & 0xff;
    };
    for (let i = 0; i < 2000; i++) {
      const packet = Uint8Array.from({ length: next() % 24 }, next);
      for (const characteristic of Object.values(BLE_CHARACTERISTICS)) {
        expect(() => bleReadingValues(characteristic, packet)).not.toThrow();
      }
    }
  });
});
