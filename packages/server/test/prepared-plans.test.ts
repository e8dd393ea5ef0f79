import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db, Tx } from '../src/db/index.ts';
import { listLatest, listPage } from '../src/modules/alert/repository.ts';
import { listReadings } from '../src/modules/readings/repository.ts';
import { postAlert, postHealth, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, type TestUser, useTestApp } from './helpers.ts';

const postgres = dbTargets().filter((t) => t.name === 'postgres');

/**
 * PostgreSQL keeps a prepared statement's plan (a generic one, from the sixth call) only when that
 * plan looks no dearer than planning with the values; a LIMIT given as a value made the generic
 * plan look dearer (it assumes a tenth of the rows), so the dashboard's hot reads were planned on
 * every call. PGlite prepares nothing by name: PostgreSQL only.
 */
describe.skipIf(postgres.length === 0).each(postgres)('prepared reads on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0, escalationIntervalMs: 0 } });
  let user: TestUser;
  let deviceId: string;

  beforeAll(async () => {
    const made = await userWithDevice(built(), await createAdmin(built()));
    user = made.user;
    deviceId = made.device._id;
    const start = Date.now() - 3_600_000;
    for (let i = 0; i < 3000; i += 500) {
      const batch = Array.from({ length: 500 }, (_, k) => ({
        messageId: `p${i + k}`,
        recordedAt: new Date(start + (i + k) * 1000).toISOString(),
        heartRate: 70,
      }));
      expect((await postHealth(built(), made.device.apiAuthCode, batch)).statusCode).toBe(202);
    }
    const alerts = Array.from({ length: 100 }, (_, k) => ({ alertType: 'SOS', messageId: `a${k}` }));
    expect((await postAlert(built(), made.device.apiAuthCode, alerts)).statusCode).toBeLessThan(300);
    await built().ctx.db.execute(sql`analyze`);
  });

  it('plans the newest readings, the latest alerts and an alert page once, not on every call', async () => {
    // In one transaction: one connection, whose prepared statements `pg_prepared_statements` lists.
    const counts = await built().ctx.db.transaction(async (tx: Tx) => {
      for (let call = 0; call < 8; call++) {
        expect(await listReadings(tx, deviceId, { limit: 100 })).toHaveLength(100);
        expect(await listLatest(tx as unknown as Db, user.user._id, 3)).toHaveLength(3);
        expect(await listPage(tx, user.user._id, {}, undefined, 51)).toHaveLength(51);
      }
      const result = (await tx.execute(
        sql`select name, generic_plans::int as generic from pg_prepared_statements`,
      )) as unknown as { rows: { name: string; generic: number }[] };
      return result.rows;
    });
    for (const prefix of ['newest_readings', 'list_latest_alerts', 'alerts_page']) {
      const mine = counts.filter((c) => c.name.startsWith(prefix));
      expect(mine, prefix).toHaveLength(1);
      expect(mine[0]!.generic, prefix).toBeGreaterThan(0);
    }
  });
});
