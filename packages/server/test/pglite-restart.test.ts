import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { localStatementTimeout } from '../src/db/pglite-limits.ts';
import { RESTART_RETRY_MS } from '../src/db/pglite-thread.ts';
import { ServerPGlite } from '../src/db/server-pglite.ts';

/** The embedded database's thread ending (a crash, a statement past its limit): started again on a database on disk. */
describe('ServerPGlite after its thread ends', () => {
  const dirs: string[] = [];
  const open: ServerPGlite[] = [];
  const onDisk = (
    onThreadEnded?: (err: Error, restarting: boolean) => void,
    statementLimitMs?: number,
    scriptLimitMs?: number,
  ) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vw-restart-'));
    dirs.push(dir);
    const db = new ServerPGlite({
      dataDir: path.join(dir, 'db'),
      onThreadEnded,
      statementLimitMs,
      scriptLimitMs,
    });
    open.push(db);
    return { db, dir };
  };
  afterEach(async () => {
    for (const db of open.splice(0)) await db.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('fails what was under way, then answers from a new thread with every committed row', async () => {
    const ended: [string, boolean][] = [];
    const { db } = onDisk((err, restarting) => ended.push([err.message, restarting]));
    await db.waitReady;
    await db.exec('create table kept (id int primary key, v text)');
    await db.query('insert into kept values ($1, $2)', [1, 'one']);
    await db.transaction(async (tx) => {
      await tx.query('insert into kept values ($1, $2)', [2, 'two']);
    });
    const first = db.thread;
    const underWay = db.query('select pg_sleep(0.2)');
    await first?.terminate();
    await expect(underWay).rejects.toThrow(/thread ended/);
    expect(ended).toEqual([["the embedded database's thread ended (exit code 1)", true]]);
    // The kept statement of this text was the old thread's: prepared again on the new one.
    const rows = await db.query<{ id: number; v: string }>('insert into kept values ($1, $2) returning *', [
      3,
      'three',
    ]);
    expect(rows.rows).toEqual([{ id: 3, v: 'three' }]);
    expect(db.thread).not.toBe(first);
    const all = await db.query<{ id: number }>('select id from kept order by id');
    expect(all.rows.map((r) => r.id)).toEqual([1, 2, 3]);
    expect(
      (await db.transaction(async (tx) => tx.query<{ n: number }>('select count(*)::int as n from kept')))
        .rows,
    ).toEqual([{ n: 3 }]);
  });

  it('fails at once while its database cannot start again, and tries again later', async () => {
    const { db, dir } = onDisk();
    await db.waitReady;
    await db.exec('create table t (id int)');
    // The data directory is gone and a file stands in its place: no database can start there.
    rmSync(path.join(dir, 'db'), { recursive: true, force: true });
    writeFileSync(path.join(dir, 'db'), 'not a directory');
    await db.thread?.terminate();
    // The failed start's error (a statement waits 10 s for a start at most: a loaded machine can take longer).
    const failed = (err: unknown) => err instanceof Error && !/no answer within/.test(err.message);
    let first: unknown;
    for (let tries = 0; tries < 10 && !failed(first); tries++)
      first = await db.query('select 1').then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(failed(first)).toBe(true);
    // The next statement fails with the same start's reason (an error of its own on that one): no
    // other start was tried for it.
    const second = await db.query('select 1').then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(Object.getPrototypeOf(second)).toBe(Object.getPrototypeOf(first));
    // Once the directory can be used again, the next try after the pause starts a database there.
    rmSync(path.join(dir, 'db'), { force: true });
    await new Promise((r) => setTimeout(r, RESTART_RETRY_MS));
    // A new database is made there (initdb), which on a loaded machine can outlast one statement's wait.
    let answer: unknown;
    for (let tries = 0; tries < 10 && !Array.isArray(answer); tries++)
      answer = await db.query<{ n: number }>('select 1 as n').then(
        (result) => result.rows,
        (err: unknown) => {
          if (failed(err)) throw err;
          return err;
        },
      );
    expect(answer).toEqual([{ n: 1 }]);
  }, 180_000);

  it('fails a transaction whose thread ended: nothing of it runs on the new thread, and its COMMIT fails', async () => {
    const { db } = onDisk();
    await db.waitReady;
    await db.exec('create table kept (id int)');
    const committed = db.transaction(async (tx) => {
      await tx.query('insert into kept values ($1)', [1]);
      await db.thread?.terminate();
      // A caller that carries on after a failure must not write outside the transaction.
      await tx.query('insert into kept values ($1)', [2]).catch(() => {});
      await tx.query('insert into kept values ($1)', [3]).catch(() => {});
    });
    await expect(committed).rejects.toThrow(/thread ended/);
    expect((await db.query<{ id: number }>('select id from kept')).rows).toEqual([]);
  });

  it('gives each statement under way when the thread ended an error of its own', async () => {
    const { db } = onDisk(undefined, 400);
    await db.waitReady;
    // Both are with the thread when the first overruns its limit and the thread is ended.
    const [first, second] = await Promise.all(
      [1, 2].map((n) => db.query('select $1::int as n from pg_sleep(1)', [n]).catch((err: unknown) => err)),
    );
    expect(first).not.toBe(second);
    expect(first).toMatchObject({ message: expect.stringMatching(/longer than 400 ms/), params: [1] });
    expect(second).toMatchObject({ message: expect.stringMatching(/longer than 400 ms/), params: [2] });
  });

  it("keeps a transaction's own limit (set local statement_timeout), which PGlite itself ignores", async () => {
    const { db } = onDisk(undefined, 400);
    await db.waitReady;
    const slept = await db.transaction(async (tx) => {
      await tx.query(`set local statement_timeout = '5s'`);
      return (await tx.query<{ n: number }>('select 1 as n from pg_sleep(0.9)')).rows;
    });
    expect(slept).toEqual([{ n: 1 }]);
    await expect(db.query('select pg_sleep(2)')).rejects.toThrow('a statement ran longer than 400 ms');
    expect(localStatementTimeout(`SET LOCAL statement_timeout TO '30min'`)).toBe(1_800_000);
    expect(localStatementTimeout('set local statement_timeout = 250')).toBe(250);
    expect(localStatementTimeout(`set local statement_timeout = '4h'`)).toBe(14_400_000);
    expect(localStatementTimeout(`set local timezone = 'UTC'`)).toBeUndefined();
  });

  it('stops a statement past its time limit, as a crash, and answers again from a new thread', async () => {
    const ended: string[] = [];
    const { db } = onDisk((err) => ended.push(err.message), 400);
    await db.waitReady;
    await db.exec('create table kept (id int)');
    await db.query('insert into kept values ($1)', [1]);
    // Scripts have a longer limit of their own.
    await db.exec('select pg_sleep(0.8)');
    // Were it not stopped, the sleep would end and the statement answer.
    const overrun = db.query('select pg_sleep(3)');
    const behind = db.query('select 1');
    await expect(overrun).rejects.toThrow('a statement ran longer than 400 ms');
    await expect(behind).rejects.toThrow('a statement ran longer than 400 ms');
    expect(ended).toEqual(["a statement ran longer than 400 ms: the embedded database's thread was stopped"]);
    expect((await db.query<{ id: number }>('select id from kept')).rows).toEqual([{ id: 1 }]);
  });

  it('stops a script past its own, longer limit; none while the limit is lifted (migrations)', async () => {
    const ended: string[] = [];
    const { db } = onDisk((err) => ended.push(err.message), 400, 1500);
    await db.exec('create table kept (id int); insert into kept values (1)');
    await db.exec('select pg_sleep(0.8)');
    await expect(db.exec('select pg_sleep(5)')).rejects.toThrow('a statement ran longer than 1500 ms');
    expect(ended).toEqual([
      "a statement ran longer than 1500 ms: the embedded database's thread was stopped",
    ]);
    db.statementLimitMs = 0;
    await db.exec('select pg_sleep(2)');
    expect((await db.query<{ id: number }>('select id from kept')).rows).toEqual([{ id: 1 }]);
  });

  it('ends a thread whose database broke (an answer cut short), rather than trust its later answers', async () => {
    const { db } = onDisk();
    await db.waitReady;
    await db.exec('create table kept (id int)');
    await db.query('insert into kept values ($1)', [1]);
    // Recursion PGlite's stack check misses: its answer stops after the row description, and
    // every later answer is empty (an insert would look done) until the thread is started again.
    await db.exec(
      `create function deep(int) returns int as 'select case when $1 = 0 then 0 else deep($1 - 1) + 1 end' language sql`,
    );
    await expect(db.query('select deep($1) as n', [100_000])).rejects.toThrow(
      'the embedded database gave an answer cut short (no ReadyForQuery): its thread was stopped',
    );
    await db.query('insert into kept values ($1)', [2]);
    expect((await db.query<{ id: number }>('select id from kept order by id')).rows).toEqual([
      { id: 1 },
      { id: 2 },
    ]);
  });

  it('is not started again when its database was in memory', async () => {
    const memory = new ServerPGlite();
    open.push(memory);
    await memory.waitReady;
    await memory.thread?.terminate();
    await expect(memory.query('select 1')).rejects.toThrow(/thread ended/);
    await expect(memory.query('select 1')).rejects.toThrow(/thread ended/);
  });
});
