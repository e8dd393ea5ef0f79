import { HEALTH_MESSAGES } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Db, drizzleOverPglite, newPglite } from '../src/db/index.ts';
import { TIME_PARTITIONED, TimePartitions } from '../src/db/partitions.ts';
import { countRows, createDevice, postHealth } from './device-helpers.ts';
import {
  createAdmin,
  dbTargets,
  MIGRATIONS,
  migrationsBefore,
  type TestUser,
  useTestApp,
} from './helpers.ts';

const DAY = 86_400_000;
const daysAgo = (d: number) => new Date(Date.now() - d * DAY).toISOString();

const partitionRow = z.object({ name: z.string(), ends: z.string() });
/** The partitions of a table with the end of each range. */
async function partitionsOf(db: Db, table: string) {
  const result = await db.execute(
    sql`select c.relname as name,
        (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \\(''([^'']+)''\\)'))[1]::timestamptz::text as ends
      from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = ${table}::regclass order by 2`,
  );
  return z
    .object({ rows: z.array(partitionRow) })
    .parse(result)
    .rows.map((r) => ({ name: r.name, ends: new Date(r.ends) }));
}

describe.each(dbTargets())('time partitions on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0, escalationIntervalMs: 0 } });
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });

  it('makes the weeks ahead at start, and a partition on demand for a reading weeks old', async () => {
    const db = built().ctx.db;
    const ahead = await partitionsOf(db, 'health_records');
    expect(ahead.at(-1)!.ends.getTime()).toBeGreaterThan(Date.now() + 14 * DAY);

    const device = await createDevice(built(), admin);
    const old = daysAgo(60);
    const res = await postHealth(built(), device.apiAuthCode, [
      { messageId: 'old', recordedAt: old, spo2: 97 },
      { messageId: 'new', recordedAt: daysAgo(0), spo2: 96 },
    ]);
    expect(res.statusCode).toBe(202);
    expect(res.json().data).toEqual({ accepted: 2, duplicates: 0 });
    expect(await countRows(built(), 'health_records', device._id)).toBe(2);
    // The resend of the old one finds it in its own partition.
    const again = await postHealth(built(), device.apiAuthCode, {
      messageId: 'old',
      recordedAt: old,
      spo2: 97,
    });
    expect(again.json().data).toEqual({ accepted: 0, duplicates: 1 });
  });

  it('refuses a reading older than the raw retention, naming the field', async () => {
    const device = await createDevice(built(), admin);
    const res = await postHealth(built(), device.apiAuthCode, [
      { recordedAt: daysAgo(1), spo2: 97 },
      { recordedAt: daysAgo(91), spo2: 97 },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().issues).toEqual([
      { path: '1.recordedAt', message: HEALTH_MESSAGES.beforeRetention(90) },
    ]);
    expect(await countRows(built(), 'health_records', device._id)).toBe(0);
  });

  it('drops only partitions wholly past their retention, readings and rollups alike', async () => {
    const db = built().ctx.db;
    const device = await createDevice(built(), admin);
    const res = await postHealth(
      built(),
      device.apiAuthCode,
      [10, 45, 80].map((d) => ({ recordedAt: daysAgo(d), heartRate: 70 })),
    );
    expect(res.statusCode).toBe(202);
    const retention = { raw: 30, rollups: 40, audit: 50 };
    const now = new Date();
    const before = await Promise.all(TIME_PARTITIONED.map((p) => partitionsOf(db, p.table)));
    const { dropped } = await new TimePartitions(db, retention).maintain(now);

    for (const [i, { table, keep }] of TIME_PARTITIONED.entries()) {
      const cutoff = now.getTime() - retention[keep] * DAY;
      const after = await partitionsOf(db, table);
      const gone = before[i]!.filter((p) => !after.some((a) => a.name === p.name));
      expect(gone.every((p) => p.ends.getTime() <= cutoff)).toBe(true);
      expect(after.every((p) => p.ends.getTime() > cutoff)).toBe(true);
      expect(gone.map((p) => p.name).every((n) => dropped.includes(n))).toBe(true);
    }
    // The week of a reading 45 days old ended at least 38 days ago: gone; 10 days old: kept.
    expect(await countRows(built(), 'health_records', device._id)).toBe(1);
    const minutes = await db.execute(
      sql`select count(*)::int as n from health_rollups_minute where device_seq = (select seq from devices where id = ${device._id}::uuid)`,
    );
    expect(
      z.object({ rows: z.tuple([z.object({ n: z.number() })]) }).parse(minutes).rows[0].n,
    ).toBeGreaterThanOrEqual(1);
  });
});

describe('migration 0004', () => {
  it('moves every reading and rollup of the old tables into the partitioned ones, ids kept', async () => {
    // The migrations up to 0003 alone, as an install of the previous release had them.
    const client = newPglite();
    const db = drizzleOverPglite(client);
    await migrate(db, { migrationsFolder: migrationsBefore('0004') });
    await client.exec(`
      insert into devices (id, device_name, activation_code, api_auth_code)
        values ('00000000-0000-4000-8000-000000000001', 'a', 'act-a', 'key-a'),
               ('00000000-0000-4000-8000-000000000002', 'b', 'act-b', 'key-b');
      insert into health_records (device_id, message_id, recorded_at, spo2, heart_rate)
        select case when s % 2 = 0 then '00000000-0000-4000-8000-000000000001'::uuid
                    else '00000000-0000-4000-8000-000000000002'::uuid end,
               'm' || s, now() - make_interval(hours => s * 5), 90 + s % 10, 60 + s % 30
        from generate_series(1, 400) s;
      insert into health_rollups_hour (device_id, bucket, readings, spo2_count, spo2_sum, spo2_min, spo2_max)
        select device_id, date_bin(interval '1 hour', recorded_at, timestamptz '2000-01-01'), count(*),
               count(spo2), sum(spo2::float8), min(spo2), max(spo2)
        from health_records group by 1, 2;`);
    const before = await client.query<{
      id: string;
      device_id: string;
      recorded_at: Date;
      message_id: string;
    }>(
      `select id::text, device_id::text, recorded_at, message_id from health_records order by health_records.id`,
    );
    const hoursBefore = await client.query<{ n: number; s: number }>(
      `select count(*)::int as n, sum(spo2_sum) as s from health_rollups_hour`,
    );

    await migrate(db, { migrationsFolder: MIGRATIONS });
    const after = await client.query<{
      id: string;
      device_id: string;
      recorded_at: Date;
      message_id: string;
    }>(
      `select h.id::text, d.id::text as device_id, h.recorded_at, h.message_id
       from health_records h join devices d on d.seq = h.device_seq order by h.id`,
    );
    expect(after.rows).toEqual(before.rows);
    const hoursAfter = await client.query<{ n: number; s: number }>(
      `select count(*)::int as n, sum(spo2_sum) as s from health_rollups_hour`,
    );
    expect(hoursAfter.rows).toEqual(hoursBefore.rows);
    // 400 readings 5 hours apart span 12 weeks: they sit in partitions, and new ids follow the old.
    expect((await partitionsOf(db as unknown as Db, 'health_records')).length).toBeGreaterThanOrEqual(12);
    const next = await client.query<{ id: string }>(`select nextval('health_reading_ids')::text as id`);
    expect(BigInt(next.rows[0]!.id)).toBeGreaterThan(BigInt(before.rows.at(-1)!.id));
    await client.close();
  });
});
