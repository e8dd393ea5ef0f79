import { alertIngestBody, deviceTopic, healthIngestBody } from '@vitalwatch/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countRows, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets } from './helpers.ts';
import { brokerUrl, connectDevice, useMqttApp } from './mqtt-helpers.ts';

const isValidJson = (schema: typeof healthIngestBody | typeof alertIngestBody, bytes: Uint8Array) => {
  try {
    return schema.safeParse(JSON.parse(Buffer.from(bytes).toString('utf8'))).success;
  } catch {
    return false;
  }
};

const vitalsNoise = fc.record(
  {
    messageId: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
    recordedAt: fc.oneof(fc.string(), fc.date({ noInvalidDate: false }).map(String), fc.integer()),
    spo2: fc.oneof(fc.double(), fc.string(), fc.constant(null)),
    heartRate: fc.oneof(fc.double({ min: 301, max: 1e9 }), fc.double({ max: -0.001 }), fc.boolean()),
    temperature: fc.oneof(
      fc.double({ min: -1e6, max: 76.9 }),
      fc.double({ min: 113.1 }),
      fc.constant(Number.NaN),
    ),
    battery: fc.oneof(fc.double({ min: 100.001 }), fc.object()),
    alertType: fc.oneof(fc.string(), fc.constant('fall'), fc.integer()),
  },
  { requiredKeys: [] },
);

/** Bytes a broken or hostile device might send: noise, arbitrary JSON, near-miss readings. */
const payload = fc.oneof(
  fc.uint8Array({ maxLength: 300 }),
  fc.json().map((j) => new TextEncoder().encode(j)),
  fc.array(vitalsNoise, { maxLength: 5 }).map((a) => new TextEncoder().encode(JSON.stringify(a))),
  vitalsNoise.map((r) => new TextEncoder().encode(JSON.stringify(r))),
);

// PGlite only: the property is about the MQTT edge, which is the same for both databases.
const pglite = dbTargets().filter((t) => t.name === 'pglite');

describe.each(pglite)('MQTT fuzz on $name', (target) => {
  const built = useMqttApp(target);

  it('acknowledges 500 malformed payloads, counts them, stores nothing, and keeps serving', async () => {
    const admin = await createAdmin(built());
    const { device } = await userWithDevice(built(), admin);
    const client = await connectDevice(brokerUrl(built()), device);
    const stats = built().ctx.mqtt.stats;
    const before = stats.malformed;
    let sent = 0;
    try {
      await fc.assert(
        fc.asyncProperty(
          payload,
          fc.constantFrom('health' as const, 'alert' as const),
          async (bytes, kind) => {
            fc.pre(!isValidJson(kind === 'health' ? healthIngestBody : alertIngestBody, bytes));
            await client.publishAsync(deviceTopic(device._id, kind), Buffer.from(bytes), { qos: 1 });
            sent++;
            expect(client.connected).toBe(true);
          },
        ),
        { numRuns: 500, seed: 20_261_121 },
      );
      expect(sent).toBeGreaterThanOrEqual(450);
      expect(stats.malformed).toBe(before + sent);
      expect(await countRows(built(), 'health_records', device._id)).toBe(0);
      expect(await countRows(built(), 'alerts', device._id)).toBe(0);

      // Still alive: a valid reading goes through on the same connection.
      await client.publishAsync(deviceTopic(device._id, 'health'), JSON.stringify({ heartRate: 70 }), {
        qos: 1,
      });
      expect(await countRows(built(), 'health_records', device._id)).toBe(1);
    } finally {
      await client.endAsync(true);
    }
  });
});
