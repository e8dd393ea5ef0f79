import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Tx } from '../src/db/index.ts';
import { MAX_IN_FLIGHT, quickRead } from '../src/db/pipelined-reads.ts';
import { PlanRoutingPool } from '../src/db/plan-routing-pool.ts';
import { preparedRows } from '../src/db/raw-rows.ts';

const url = process.env.TEST_DATABASE_URL;
const LANES = 2;

/** A quick read answering its backend's pid and `n`, after `sleepS` seconds. */
const pidOf = (n: number, sleepS = 0) => ({
  name: quickRead('pipelined_test_pid'),
  text: 'select pg_backend_pid() as pid, $1::int as n, pg_sleep($2::float8) is null as slept',
  values: [n, sleepS],
});

/** Until `check` holds, within 10 s. */
async function until(check: () => boolean | Promise<boolean>) {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await sleep(20);
  }
}

/** `use` with a connection of its own to the test database. */
async function withAdmin(use: (admin: pg.Client) => Promise<void>) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await use(admin);
  } finally {
    await admin.end();
  }
}

/**
 * Quick reads on PostgreSQL go pipelined on a few connections of their own (PipelinedReads);
 * the pool takes what they cannot. Every query still gets its own answer, or its own error.
 */
describe.skipIf(!url)('pipelined quick reads', () => {
  let pool: PlanRoutingPool;
  let ended = false;
  const open = async (lanes = LANES) => {
    ended = false;
    pool = new PlanRoutingPool(
      { connectionString: url, max: 20, application_name: 'vw-pipelined-test' },
      2,
      lanes,
    );
    // The first quick read opens the lanes and runs on the pool meanwhile.
    expect((await pool.query(pidOf(0))).rows[0]).toMatchObject({ n: 0 });
    await until(() => pool.pipelined.connected === lanes);
    return pool;
  };
  /** `count` quick reads at once, the nth answering n. */
  const manyAtOnce = (count: number, sleepS = 0) =>
    Promise.all(Array.from({ length: count }, (_, n) => pool.query(pidOf(n, sleepS))));
  const lanePids = async () => new Set((await manyAtOnce(8)).map((a) => a.rows[0].pid));
  afterEach(async () => {
    if (!ended) await pool.end();
  });

  it('answers many at once, each its own, on the lanes alone', async () => {
    await open();
    const answers = await manyAtOnce(2 * MAX_IN_FLIGHT);
    expect(answers.map((a) => a.rows[0].n)).toEqual(Array.from({ length: 2 * MAX_IN_FLIGHT }, (_, n) => n));
    expect(new Set(answers.map((a) => a.rows[0].pid)).size).toBe(LANES);
  });

  it("takes drizzle's prepared statements, as the server's reads run them", async () => {
    await open();
    const lanes = await lanePids();
    const read = preparedRows(
      quickRead('pipelined_test_drizzle'),
      sql`select pg_backend_pid() as pid, ${sql.placeholder('n')}::int as n`,
      z.object({ pid: z.number(), n: z.number() }),
    );
    const db = drizzle({ client: pool }) as unknown as Tx;
    const rows = (await Promise.all(Array.from({ length: 8 }, (_, n) => read(db, { n })))).flat();
    expect(rows.map((r) => r.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(rows.every((r) => lanes.has(r.pid))).toBe(true);
  });

  it('fails a bad query alone, the queries before and after it on its connection answered', async () => {
    await open(1);
    const bad = {
      name: quickRead('pipelined_test_bad'),
      text: 'select $1::uuid as id',
      values: ['not-a-uuid'],
    };
    const settled = await Promise.allSettled([
      pool.query(pidOf(1)),
      pool.query(pidOf(2)),
      pool.query(bad),
      pool.query(pidOf(3)),
      pool.query(pidOf(4)),
    ]);
    expect(settled.map((s) => s.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect(settled[2]).toMatchObject({ reason: { code: '22P02' } });
    const pids = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value.rows[0].pid] : []));
    expect(new Set(pids).size).toBe(1);
  });

  it('hands the pool what the lanes cannot take', async () => {
    await open();
    const count = 2 * LANES * MAX_IN_FLIGHT;
    const answers = await manyAtOnce(count, 0.05);
    expect(answers.map((a) => a.rows[0].n)).toEqual(Array.from({ length: count }, (_, n) => n));
    // The overflow ran on pooled connections, besides the lanes.
    expect(new Set(answers.map((a) => a.rows[0].pid)).size).toBeGreaterThan(LANES);
  });

  it('runs the reads of a lost connection again on the pool, and opens the lanes again', async () => {
    await open();
    const lanes = await lanePids();
    await withAdmin(async (admin) => {
      // Killed while a read is under way on each (asleep there): those run again on the pool.
      const underWay = Array.from({ length: 4 }, (_, n) => pool.query(pidOf(n, 0.5)));
      await until(
        async () =>
          (
            await admin.query(
              "select count(*)::int as n from pg_stat_activity where pid = any($1) and wait_event = 'PgSleep'",
              [[...lanes]],
            )
          ).rows[0].n === LANES,
      );
      await admin.query('select pg_terminate_backend(pid) from unnest($1::int[]) pid', [[...lanes]]);
      const answers = await Promise.all(underWay);
      expect(answers.map((a) => a.rows[0].n)).toEqual([0, 1, 2, 3]);
      expect(answers.some((a) => lanes.has(a.rows[0].pid))).toBe(false);
    });
    await until(async () => {
      await pool.query(pidOf(6));
      return pool.pipelined.connected === LANES;
    });
    expect([...(await lanePids())].some((pid) => lanes.has(pid))).toBe(false);
  });

  it("leaves a read waiting on a lock to the pool, the lane's other reads answered meanwhile", async () => {
    await open(1);
    const table = `pipelined_test_${process.pid}`;
    const read = { name: quickRead(`pipelined_test_read_${process.pid}`), text: `select * from ${table}` };
    await withAdmin(async (admin) => {
      await admin.query(`create table ${table} (x int); insert into ${table} values (1)`);
      try {
        expect((await pool.query(read)).rows).toEqual([{ x: 1 }]);
        // DDL waiting on the table: the lane's read gives up its wait and runs on the pool.
        await admin.query(`begin; lock table ${table} in access exclusive mode`);
        const waiting = pool.query(read);
        await sleep(300);
        const meanwhile = await pool.query(pidOf(7));
        expect(meanwhile.rows[0].n).toBe(7);
        await admin.query(`alter table ${table} add column y int; commit`);
        // Its answer has a new column: the lane's kept statement is stale, so the lane is opened anew.
        expect((await waiting).rows).toEqual([{ x: 1, y: null }]);
        await until(async () => {
          await pool.query(pidOf(8));
          return pool.pipelined.connected === 1;
        });
        expect((await pool.query(read)).rows).toEqual([{ x: 1, y: null }]);
      } finally {
        await admin.query(`rollback; drop table if exists ${table}`);
      }
    });
  });

  it('closes its lanes with the pool', async () => {
    await open();
    await pool.end();
    ended = true;
    await withAdmin((admin) =>
      until(
        async () =>
          (
            await admin.query(
              "select count(*)::int as n from pg_stat_activity where application_name = 'vw-pipelined-test'",
            )
          ).rows[0].n === 0,
      ),
    );
  });
});
