import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MOVE_BATCH_ROWS, moveDatabase } from '../src/backup/move.ts';
import { rawRows } from '../src/db/raw-rows.ts';
import { insertAlert, insertDevice } from './admin-helpers.ts';
import { emptyDatabase, keptCounts, tableCounts } from './backup-helpers.ts';
import { deviceUserCountDrift } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, useTestApp } from './helpers.ts';

const postgres = dbTargets().find((t) => t.name === 'postgres');
const pglite = dbTargets().find((t) => t.name === 'pglite')!;

describe.skipIf(!postgres)('npm run db:move: PGlite to PostgreSQL', { timeout: 180_000 }, () => {
  const built = useTestApp(pglite);
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });

  it('moves every table in batches, resumes after an interruption, sets sequences and verifies', async () => {
    const source = built().ctx.database;
    await createAdmin(built());
    const [first, second] = [await signup(built()), await signup(built())];
    const deviceId = await insertDevice(source.db, [first.user._id, second.user._id]);
    await insertAlert(source.db, deviceId);
    const readings = 2 * MOVE_BATCH_ROWS + 123;
    await source.db.execute(sql`
      insert into health_records (recorded_at, device_seq, heart_rate, spo2, message_id)
      select now() - make_interval(secs => g), (select seq from devices where id = ${deviceId}::uuid), 60 + g % 40, 95, 'm' || g
      from generate_series(1, ${readings}) g`);
    const target = await emptyDatabase(postgres!);
    cleanups.push(target.drop);

    // Stopped after the first batch of readings, as a killed process would be.
    let batches = 0;
    await expect(
      moveDatabase(source, target.database, (p) => {
        if (p.table === 'health_records' && ++batches === 1) throw new Error('interrupted');
      }),
    ).rejects.toThrow('interrupted');
    const partial = await tableCounts(target.database);
    expect(partial.health_records).toBe(MOVE_BATCH_ROWS);

    let resumedFrom: number | undefined;
    const verification = await moveDatabase(source, target.database, (p) => {
      resumedFrom ??= p.table === 'health_records' && p.resumed ? p.rows : undefined;
    });
    expect(resumedFrom).toBeGreaterThan(MOVE_BATCH_ROWS);
    const moved = await tableCounts(target.database);
    expect(moved).toEqual(await tableCounts(source));
    expect(moved.health_records).toBe(readings);
    // The kept counts are not copied: the move's inserts rebuild them, a resumed batch not twice.
    expect(await keptCounts(target.database)).toEqual({
      devices: moved.devices,
      users: moved.users,
      device_users: moved.device_users,
    });
    expect(await deviceUserCountDrift(target.database.db)).toEqual([]);
    for (const v of verification) {
      expect(v.target, v.table).toBe(v.source);
      expect(v.targetSum, v.table).toBe(v.sourceSum);
    }
    expect(verification.find((v) => v.table === 'health_records')?.sampled).toBeGreaterThan(0);
    // The checkpoint is gone, and new ids follow the moved ones.
    const [check] = await rawRows(
      target.database.db,
      sql`select nextval('health_reading_ids') > (select max(id) from health_records) as ok,
                 to_regclass('vitalwatch_move.progress') is null as gone`,
      z.object({ ok: z.boolean(), gone: z.boolean() }),
    );
    expect(check).toEqual({ ok: true, gone: true });
  });
});
