import {
  fleetDevicePage,
  fleetDeviceQuery,
  fleetUserQuery,
  type HealthHistory,
  type HistorySummary,
} from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db, Tx } from '../src/db/index.ts';
import { NAMED_SHAPES_PER_QUERY } from '../src/db/once-for.ts';
import { GENERIC_PLAN } from '../src/db/server-pglite.ts';
import { type AlertFilters, listPage } from '../src/modules/alert/repository.ts';
import { devicePageJson, userPageRows } from '../src/modules/fleet/repository.ts';
import { deviceHistory, rangeSummary } from '../src/modules/readings/history.ts';
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
  let userId: string;

  beforeAll(async () => {
    const made = await userWithDevice(built(), await createAdmin(built()));
    deviceId = made.device._id;
    userId = made.user.user._id;
    const start = Date.now() - 3_600_000;
    for (let i = 0; i < 3000; i += 500) {
      const batch = Array.from({ length: 500 }, (_, k) => ({
        messageId: `p${i + k}`,
        recordedAt: new Date(start + (i + k) * 1000).toISOString(),
        heartRate: 70,
      }));
      expect((await postHealth(built(), made.device.apiAuthCode, batch)).statusCode).toBe(202);
    }
    await built().ctx.db.execute(sql`insert into alerts (device_id, alert_type, alert_title, alert_message, recorded_at)
      select ${deviceId}::uuid, 'SOS', 'SOS', 'SOS pressed', now() - make_interval(mins => s) from generate_series(1, 40) s`);
    await built().ctx.db.execute(sql`analyze`);
  });

  /** Eight calls of `call` on one connection, then the generic plans of its statements named `prefix…`. */
  async function genericPlans(prefix: string, call: (tx: Tx) => Promise<void>): Promise<number[]> {
    // In one transaction: one connection, whose prepared statements `pg_prepared_statements` lists.
    const counts = await built().ctx.db.transaction(async (tx: Tx) => {
      for (let n = 0; n < 8; n++) await call(tx);
      const result = (await tx.execute(
        sql`select name, generic_plans::int as generic from pg_prepared_statements`,
      )) as unknown as { rows: { name: string; generic: number }[] };
      return result.rows;
    });
    return counts.filter((c) => c.name.startsWith(prefix)).map((c) => c.generic);
  }

  it('plans the newest readings once, not on every call', async () => {
    const newest = await genericPlans('newest_readings', async (tx) => {
      expect(await listReadings(tx, deviceId, { limit: 100 })).toHaveLength(100);
    });
    expect(newest).toHaveLength(1);
    expect(newest[0]).toBeGreaterThan(0);
  });

  it("plans the admin's first pages of devices and users once, not on every call", async () => {
    const devices = await genericPlans('fleet_devices', async (tx) => {
      const page = fleetDevicePage.parse(JSON.parse(await devicePageJson(tx, fleetDeviceQuery.parse({}))));
      expect(page.devices).toHaveLength(1);
    });
    expect(devices).toHaveLength(1);
    expect(devices[0]).toBeGreaterThan(0);
    const users = await genericPlans('fleet_users', async (tx) => {
      expect((await userPageRows(tx, fleetUserQuery.parse({}))).length).toBeGreaterThan(1);
    });
    expect(users).toHaveLength(1);
    expect(users[0]).toBeGreaterThan(0);
  });

  it(`keeps ${NAMED_SHAPES_PER_QUERY} shapes of the alert page named on a connection, and answers the rest unnamed`, async () => {
    const named = await built().ctx.db.transaction(async (tx: Tx) => {
      // One connection, whose named statements `pg_prepared_statements` lists, and its own shapes:
      // 8 filter and order shapes, 16 LIMIT tiers.
      const db = tx as Db;
      for (const from of [undefined, new Date(Date.now() - 86_400_000)])
        for (const status of [undefined, 'active'] as const)
          for (const byPriority of [false, true])
            for (let limit = 1; limit <= 30; limit++) {
              const filters: AlertFilters = { from, status };
              const all = await listPage(db, userId, filters, undefined, 100, byPriority);
              expect(all.rows).toHaveLength(40);
              const page = await listPage(db, userId, filters, undefined, limit, byPriority);
              expect(page.rows.map((r) => r.id)).toEqual(all.rows.slice(0, limit).map((r) => r.id));
              expect(page.total).toBe(40);
            }
      const result = (await tx.execute(
        sql`select count(*)::int as n from pg_prepared_statements where name like '%alerts_page_%'`,
      )) as unknown as { rows: { n: number }[] };
      return result.rows[0]?.n;
    });
    expect(named).toBe(NAMED_SHAPES_PER_QUERY);
  });

  it("runs a history's statements with their generic plans, on connections of their own, answering the same", async () => {
    const { db } = built().ctx;
    const to = new Date();
    // Partial minutes at both ends, whole ones between: every part of the summary reads.
    const from = new Date(to.getTime() - 3_000_000 + 1500);
    const recent = new Date(to.getTime() - 300_000);
    // One at a time: the pool hands out its latest idle connection, the one listed below.
    const read = async (tx: Tx) => [
      await rangeSummary(tx, deviceId, from, to),
      await deviceHistory(tx, deviceId, from, to, 500),
      await deviceHistory(tx, deviceId, recent, to, 500),
    ];
    // In a transaction a marked statement stays on the transaction's connection, planned as chosen.
    const chosen = await db.transaction(read);
    const [summary, minutes, raw] = chosen as [HistorySummary, HealthHistory, HealthHistory];
    expect(summary.readings).toBeGreaterThan(2000);
    expect([minutes.resolution, raw.resolution]).toEqual(['minute', 'raw']);
    for (let n = 0; n < 8; n++) expect(await read(db)).toEqual(chosen);
    // Marked too: on the connection the calls used.
    const [routed] = (
      (await db.execute(
        sql.raw(`${GENERIC_PLAN}select current_setting('plan_cache_mode') as mode,
          sum(generic_plans)::int as generic, sum(custom_plans)::int as custom
          from pg_prepared_statements where name like 'history_%'`),
      )) as unknown as { rows: { mode: string; generic: number; custom: number }[] }
    ).rows;
    // Each read: three summaries, minute buckets, raw readings.
    expect(routed).toEqual({ mode: 'force_generic_plan', generic: 40, custom: 0 });
    const [plain] = (
      (await db.execute(sql`select current_setting('plan_cache_mode') as mode`)) as unknown as {
        rows: { mode: string }[];
      }
    ).rows;
    expect(plain?.mode).toBe('auto');
  });
});
