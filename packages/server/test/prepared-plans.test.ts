import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '../src/db/index.ts';
import { listReadings } from '../src/modules/readings/repository.ts';
import { postHealth, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, useTestApp } from './helpers.ts';

const postgres = dbTargets().filter((t) => t.name === 'postgres');

/**
 * PostgreSQL keeps a prepared statement's plan (a generic one, from the sixth call) only when that
 * plan looks no dearer than planning with the values; a LIMIT given as a value made the generic
 * plan look dearer (it assumes a tenth of the rows), so the newest readings every dashboard asks
 * for were planned on every call. PGlite prepares nothing by name: PostgreSQL only.
 */
describe.skipIf(postgres.length === 0).each(postgres)('prepared reads on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0, escalationIntervalMs: 0 } });
  let deviceId: string;

  beforeAll(async () => {
    const made = await userWithDevice(built(), await createAdmin(built()));
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
    await built().ctx.db.execute(sql`analyze`);
  });

  it('plans the newest readings once, not on every call', async () => {
    // In one transaction: one connection, whose prepared statements `pg_prepared_statements` lists.
    const counts = await built().ctx.db.transaction(async (tx: Tx) => {
      for (let call = 0; call < 8; call++) {
        expect(await listReadings(tx, deviceId, { limit: 100 })).toHaveLength(100);
      }
      const result = (await tx.execute(
        sql`select name, generic_plans::int as generic from pg_prepared_statements`,
      )) as unknown as { rows: { name: string; generic: number }[] };
      return result.rows;
    });
    const newest = counts.filter((c) => c.name.startsWith('newest_readings'));
    expect(newest).toHaveLength(1);
    expect(newest[0]!.generic).toBeGreaterThan(0);
  });
});
