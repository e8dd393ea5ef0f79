import { deviceTopic, type TwoFactorChallenge } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type BuiltApp, buildApp } from '../src/app.ts';
import { totpCode } from '../src/auth/two-factor.ts';
import { restoreBackup } from '../src/backup/restore.ts';
import type { Database } from '../src/db/index.ts';
import { rawRows } from '../src/db/raw-rows.ts';
import { backupTo, emptyDatabase, keptCounts, scratchFile, tableCounts } from './backup-helpers.ts';
import { deviceUserCountDrift, postAlert, postHealth, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, type TestUser, testConfig } from './helpers.ts';
import { brokerUrl, connectDevice, useMqttApp } from './mqtt-helpers.ts';

const inject = (built: BuiltApp, url: string, payload: object, who?: TestUser) =>
  built.app.inject({ method: 'POST', url, payload, ...(who ? { headers: who.auth } : {}) });

async function enrolTwoFactor(built: BuiltApp, who: TestUser): Promise<string> {
  const setup = await inject(built, '/api/v1/user/two-factor/setup', { password: who.password }, who);
  const { secret } = setup.json<{ data: { secret: string } }>().data;
  const enabled = await inject(built, '/api/v1/user/two-factor/enable', { code: totpCode(secret) }, who);
  expect(enabled.statusCode, enabled.body).toBe(200);
  const accessToken: string = enabled.json().data.accessToken;
  who.accessToken = accessToken;
  who.auth = { authorization: `Bearer ${accessToken}` };
  return secret;
}

const count = async (database: Database, query: ReturnType<typeof sql>) =>
  (await rawRows(database.db, query, z.object({ n: z.coerce.number() })))[0]?.n ?? 0;

describe.each(dbTargets())('backup and restore on $name', (target) => {
  const built = useMqttApp(target);
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('a backup taken under HTTP and MQTT ingest restores into an empty database: counts, readings, two-factor, audit, timelines', async () => {
    const source = built();
    const admin = await createAdmin(source);
    const { user, device } = await userWithDevice(source, admin);
    const secret = await enrolTwoFactor(source, user);
    await postAlert(source, device.apiAuthCode, { alertType: 'FALL' });
    const alerts = await inject(source, '/api/v1/alert/all', {}, user);
    const alertId: string = alerts.json().data.alerts[0]._id;
    expect((await inject(source, `/api/v1/alert/acknowledge/${alertId}`, {}, user)).statusCode).toBe(200);
    const timeline = (await inject(source, `/api/v1/alert/timeline/${alertId}`, {}, user)).json().data
      .timeline;

    // Acknowledged before the snapshot: over HTTP, and over MQTT at QoS 1 (acknowledged once stored).
    const http = await postHealth(
      source,
      device.apiAuthCode,
      Array.from({ length: 50 }, (_, i) => ({
        messageId: `pre-http-${i}`,
        heartRate: 60 + (i % 30),
        spo2: 97,
      })),
    );
    expect(http.statusCode, http.body).toBe(202);
    const mqtt = await connectDevice(brokerUrl(source), device);
    for (let i = 0; i < 20; i += 1) {
      await mqtt.publishAsync(
        deviceTopic(device._id, 'health'),
        JSON.stringify({ messageId: `pre-mqtt-${i}`, spo2: 96 }),
        {
          qos: 1,
        },
      );
    }

    // Load during the backup: both paths keep sending until it is done.
    let loading = true;
    let sent = 0;
    const load = (async () => {
      for (let i = 0; loading; i += 1) {
        const [res] = await Promise.all([
          postHealth(source, device.apiAuthCode, { messageId: `load-http-${i}`, heartRate: 70 }),
          mqtt.publishAsync(
            deviceTopic(device._id, 'health'),
            JSON.stringify({ messageId: `load-mqtt-${i}`, spo2: 95 }),
            {
              qos: 1,
            },
          ),
        ]);
        expect(res.statusCode).toBe(202);
        sent += 2;
      }
    })();
    const file = scratchFile();
    const backup = await backupTo(source, file).finally(() => {
      loading = false;
    });
    await load;
    await mqtt.endAsync();
    expect(sent).toBeGreaterThan(0);
    expect(backup.rows).toBeGreaterThan(70);

    const restored = await emptyDatabase(target);
    cleanups.push(restored.drop);
    const result = await restoreBackup(restored.database, { source: () => file, passphrase: undefined });
    for (const c of result.counts) expect(c.actual, c.table).toBe(c.expected);
    const counts = await tableCounts(restored.database);
    for (const t of backup.header.tables) expect(counts[t.name], t.name).toBe(t.rows);
    // The kept counts are not in the backup: the restore's inserts rebuild them.
    expect(await keptCounts(restored.database)).toEqual({
      devices: counts.devices,
      users: counts.users,
      device_users: counts.device_users,
    });
    expect(await deviceUserCountDrift(restored.database.db)).toEqual([]);
    expect(
      await count(
        restored.database,
        sql`select count(*) as n from health_records where message_id like 'pre-%'`,
      ),
    ).toBe(70);

    // The server starts on it with the backup's keys, and every count still matches.
    const config = testConfig({ jwtSecret: backup.header.keys.jwtSecret });
    const after = await buildApp(config, { database: restored.database });
    cleanups.push(() => after.app.close());
    await after.app.ready();
    const challenge = await inject(after, '/api/v1/user/login', {
      user: { username: user.user.username, password: user.password },
    });
    expect(challenge.statusCode, challenge.body).toBe(200);
    const { challengeToken } = challenge.json<{ data: TwoFactorChallenge }>().data.twoFactor;
    // The next 30 s step: the enrolment used this one, and a code is accepted once.
    const signedIn = await inject(after, '/api/v1/user/login/two-factor', {
      challengeToken,
      code: totpCode(secret, Date.now() + 30_000),
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const session: TestUser = {
      ...user,
      auth: { authorization: `Bearer ${signedIn.json().data.accessToken}` },
    };
    const timelineAfter = await inject(after, `/api/v1/alert/timeline/${alertId}`, {}, session);
    expect(timelineAfter.json().data.timeline).toEqual(timeline);

    // The audit log came back whole and is still append-only.
    const auditRows = backup.header.tables.find((t) => t.name === 'audit_events')?.rows ?? 0;
    expect(auditRows).toBeGreaterThan(0);
    expect(
      await count(restored.database, sql`select count(*) as n from audit_events`),
    ).toBeGreaterThanOrEqual(auditRows);
    await expect(restored.database.db.execute(sql`delete from audit_events`)).rejects.toThrow();
    // New rows get new ids: the sequences were set past the restored ones.
    const reading = await postHealth(after, device.apiAuthCode, {
      messageId: 'after-restore',
      heartRate: 71,
    });
    expect(reading.statusCode, reading.body).toBe(202);
    expect(
      await count(restored.database, sql`select count(distinct id) - count(*) as n from health_records`),
    ).toBe(0);
  });
});
