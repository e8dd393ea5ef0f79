import { deviceTopic, SERVER_MESSAGES } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { countRows, createDevice, postHealth } from './device-helpers.ts';
import { createAdmin, dbTargets, eventually } from './helpers.ts';
import { brokerUrl, connectDevice, useMqttApp } from './mqtt-helpers.ts';
import { freePort } from './realtime-helpers.ts';

// A queue of one reading, so a handful of callers fill it.
describe.each(dbTargets())('ingest under overload on $name', (target) => {
  const built = useMqttApp(target, async () => ({
    mqttPort: await freePort(),
    ingest: { offlineSweepIntervalMs: 0, escalationIntervalMs: 0, maxQueuedRows: 1 },
  }));
  const closing: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    await Promise.all(closing.map((close) => close()));
  });

  it('HTTP: past the queue limit a caller gets 429 with Retry-After at once, and nothing of it is stored', async () => {
    const admin = await createAdmin(built());
    const device = await createDevice(built(), admin);
    // Its credentials are cached now: the burst below needs no database to authenticate.
    expect((await postHealth(built(), device.apiAuthCode, { spo2: 97 })).statusCode).toBe(202);
    // Writes of this device wait while a transaction holds its row: batches stay in flight.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holding = built().ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from devices where id = ${device._id}::uuid for update`);
      locked();
      await held;
    });
    await lockTaken;
    // One at a time, so each starts a batch of its own: the batches in flight (one on PGlite,
    // four on PostgreSQL) wait for the lock, one more waits in the queue, and the rest are shed.
    const refused: number[] = [];
    const answers = [];
    for (let i = 0; i < 8; i++) {
      answers.push(
        postHealth(built(), device.apiAuthCode, { messageId: `h${i}`, spo2: 97 }).then((r) => {
          if (r.statusCode === 429) refused.push(i);
          return r;
        }),
      );
      await new Promise((r) => setTimeout(r, 30));
    }
    await eventually(() => refused.length > 0, 5000);
    release();
    await holding;
    const settled = await Promise.all(answers);
    const accepted = settled.filter((r) => r.statusCode === 202);
    const shed = settled.filter((r) => r.statusCode === 429);
    expect(accepted.length + shed.length).toBe(8);
    expect(shed[0]!.headers['retry-after']).toBe('1');
    expect(shed[0]!.json()).toMatchObject({ code: 'RATE_LIMITED', message: SERVER_MESSAGES.ingestBusy });
    expect(await countRows(built(), 'health_records', device._id)).toBe(1 + accepted.length);
    expect(built().ctx.ingest.shed).toBeGreaterThanOrEqual(shed.length);
  });

  it('MQTT: publishes past the limit wait for room and are acknowledged once stored; none is lost', async () => {
    const admin = await createAdmin(built());
    const devices = await Promise.all(Array.from({ length: 6 }, () => createDevice(built(), admin)));
    const clients = await Promise.all(devices.map((d) => connectDevice(brokerUrl(built()), d)));
    closing.push(...clients.map((c) => () => c.endAsync(true)));
    await Promise.all(
      devices.flatMap((d, i) =>
        [0, 1].map((n) =>
          clients[i]!.publishAsync(
            deviceTopic(d._id, 'health'),
            JSON.stringify({ messageId: `m${n}`, spo2: 97 }),
            {
              qos: 1,
            },
          ),
        ),
      ),
    );
    for (const d of devices) expect(await countRows(built(), 'health_records', d._id)).toBe(2);
    expect(built().ctx.mqtt.stats.failed).toBe(0);
  });
});
