import { PLAUSIBLE_RANGES } from '@vitalwatch/shared';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { countRows, createDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, useTestApp } from './helpers.ts';

/** Runs per endpoint; PGlite only, to keep the suite quick (the rules do not depend on the driver). */
const RUNS = 1000;
const VITALS = ['spo2', 'heartRate', 'temperature', 'battery'] as const;

// ---- building blocks ----

const validReading = fc.record(
  {
    messageId: fc
      .string({ minLength: 1, maxLength: 20, unit: 'grapheme-ascii' })
      .filter((s) => !/\p{Cc}/u.test(s)),
    recordedAt: fc.integer({ min: 1, max: 3600_000 }).map((ago) => new Date(Date.now() - ago).toISOString()),
    spo2: fc.integer({ min: 80, max: 100 }),
    heartRate: fc.integer({ min: 40, max: 180 }),
    temperature: fc.double({ min: 90, max: 104, noNaN: true }),
    battery: fc.integer({ min: 0, max: 100 }),
  },
  { requiredKeys: ['spo2'] },
);
const validEvent = fc.record(
  {
    messageId: fc.uuid(),
    alertType: fc.constantFrom('FALL', 'SOS', 'BATTERY'),
    alertTitle: fc.constantFrom('Fall', 'Help'),
  },
  { requiredKeys: ['alertType'] },
);

const notANumber = fc.oneof(
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
);
const outOfRange = (vital: (typeof VITALS)[number]) => {
  const { min, max } = PLAUSIBLE_RANGES[vital];
  return fc.oneof(
    fc.double({ max: min - 0.001, noNaN: true, noDefaultInfinity: true }),
    fc.double({ min: max + 0.001, noNaN: true, noDefaultInfinity: true }),
  );
};
const badMessageId = fc.oneof(
  fc.constant(''),
  fc.string({ minLength: 101, maxLength: 200 }),
  fc.string({ maxLength: 10 }).map((s) => `${s}\u0000${s}`),
  fc.string({ maxLength: 10 }).map((s) => `${s}\n`),
  fc.integer(),
  fc.constant(null),
);
const badRecordedAt = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.integer(),
  fc.constant(null),
  // Shapes a careless device might send.
  fc.constantFrom('2024-02-30T00:00:00Z', '2024-13-01T00:00:00Z', '2024-01-01', '0000-01-01T00:00:00Z'),
  fc.constantFrom('2024-01-01T24:00:00Z', '2024-01-01T00:00:00+25:00', '1999-12-31T23:59:59Z'),
  fc.integer({ min: 6, max: 1_000_000 }).map((min) => new Date(Date.now() + min * 60_000).toISOString()),
);
/** A key neither schema knows: a known one could turn the item valid (e.g. alertTitle: "Help"). */
const KNOWN_KEYS = ['messageId', 'recordedAt', ...VITALS, 'alertType', 'alertTitle', 'alertMessage'];
const extraKey = fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !KNOWN_KEYS.includes(k));

/** A valid reading with exactly one thing wrong. */
const badReading = fc.oneof(
  fc
    .tuple(validReading, fc.constantFrom(...VITALS))
    .chain(([r, vital]) => fc.oneof(outOfRange(vital), notANumber).map((v) => ({ ...r, [vital]: v }))),
  fc.tuple(validReading, badMessageId).map(([r, messageId]) => ({ ...r, messageId })),
  fc.tuple(validReading, badRecordedAt).map(([r, recordedAt]) => ({ ...r, recordedAt })),
  fc.tuple(validReading, extraKey, fc.jsonValue()).map(([r, k, v]) => ({ ...r, [k]: v })),
  validReading.map(({ messageId, recordedAt }) => ({ messageId, recordedAt })),
);

/** Longer than `max` even once trimmed (the schemas trim titles and messages first). */
const tooLong = (max: number) =>
  fc.string({ minLength: max + 1, maxLength: max + 100 }).filter((s) => s.trim().length > max);

const badEvent = fc.oneof(
  validEvent.map(({ alertType: _drop, ...rest }) => rest),
  fc
    .tuple(
      validEvent,
      fc.oneof(
        fc.string({ maxLength: 40 }).filter((s) => !/^[A-Z][A-Z0-9_]{1,31}$/.test(s)),
        // Not notANumber: its strings may be valid names ("JL").
        fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 })),
      ),
    )
    .map(([e, alertType]) => ({ ...e, alertType })),
  fc
    .tuple(validEvent, fc.oneof(tooLong(200), fc.constant(''), fc.integer()))
    .map(([e, alertTitle]) => ({ ...e, alertTitle })),
  fc
    .tuple(validEvent, fc.oneof(tooLong(1000), fc.constant('a\u0000b')))
    .map(([e, alertMessage]) => ({ ...e, alertMessage })),
  fc.tuple(validEvent, badMessageId).map(([e, messageId]) => ({ ...e, messageId })),
  fc.tuple(validEvent, badRecordedAt).map(([e, recordedAt]) => ({ ...e, recordedAt })),
  fc.tuple(validEvent, extraKey, fc.jsonValue()).map(([e, k, v]) => ({ ...e, [k]: v })),
);

/** One bad item hidden among good ones, an empty batch, or one item too many. */
const badBatch = <T>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<unknown>) =>
  fc.oneof(
    fc
      .tuple(fc.array(good, { maxLength: 6 }), bad, fc.nat())
      .map(([items, b, at]) => [
        ...items.slice(0, at % (items.length + 1)),
        b,
        ...items.slice(at % (items.length + 1)),
      ]),
    fc.constant([]),
    good.map((g) => Array(501).fill(g)),
  );

/** Not a reading or an event at all. */
const junk = fc.oneof(fc.jsonValue(), fc.string(), fc.integer(), fc.constant(null));

type Request = { payload: string; contentType?: string; apiKey?: 'valid' | 'none' | string };

const parsesAsJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};
const asJson = (value: unknown): Request => ({ payload: JSON.stringify(value) ?? 'null' });
const malformedRequest = (bad: fc.Arbitrary<unknown>, good: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 6, arbitrary: bad.map(asJson) },
    { weight: 3, arbitrary: badBatch(good, bad).map(asJson) },
    { weight: 2, arbitrary: junk.map(asJson) },
    // Broken JSON, a wrong media type, a wrong or missing key with a good body.
    {
      weight: 1,
      arbitrary: fc
        .string({ maxLength: 50 })
        .map((s) => `{"spo2": ${s}`)
        // "0}" would close it into a valid reading (CI found that one).
        .filter((payload) => !parsesAsJson(payload))
        .map((payload) => ({ payload })),
    },
    { weight: 1, arbitrary: good.map((g) => ({ ...asJson(g), contentType: 'text/plain' })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(good, fc.oneof(fc.constant('none'), fc.string({ maxLength: 60 })))
        .map(([g, apiKey]) => ({ ...asJson(g), apiKey })),
    },
  );

describe.each(dbTargets().filter((t) => t.name === 'pglite'))('ingestion fuzz on $name', (target) => {
  // Rate and failure limits out of the way: every request must reach validation, not a 429.
  const built = useTestApp(target, {
    ingest: { ratePerDevicePerSecond: 1_000_000, offlineSweepIntervalMs: 0 },
    deviceAuth: { failuresPerIp: 1_000_000 },
  });
  let apiKey: string;
  beforeAll(async () => {
    const admin = await createAdmin(built());
    apiKey = (await createDevice(built(), admin)).apiAuthCode;
  });

  const send = (url: string, req: Request) => {
    const key = req.apiKey === undefined || req.apiKey === 'valid' ? apiKey : req.apiKey;
    return built().app.inject({
      method: 'POST',
      url,
      payload: req.payload,
      headers: {
        'content-type': req.contentType ?? 'application/json',
        ...(key === 'none' ? {} : { 'x-api-key': key }),
      },
    });
  };

  it.each([
    ['/api/v1/ingest/health', malformedRequest(badReading, validReading)],
    ['/api/v1/ingest/alert', malformedRequest(badEvent, validEvent)],
  ] as const)(
    '%s: malformed requests get a 4xx with a message, never a 5xx, and store nothing',
    async (url, requests) => {
      const before = [await countRows(built(), 'health_records'), await countRows(built(), 'alerts')];
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(requests, async (req) => {
          const res = await send(url, req);
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          expect([400, 401, 415]).toContain(res.statusCode);
          expect(res.json()).toMatchObject({
            success: false,
            message: expect.any(String),
            code: expect.any(String),
          });
        }),
        { numRuns: RUNS },
      );
      expect([await countRows(built(), 'health_records'), await countRows(built(), 'alerts')]).toEqual(
        before,
      );
      // The generators reach validation, not just the door.
      expect(statuses.get(400)).toBeGreaterThan(RUNS / 2);
    },
  );
});
