import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { startEarly } from '../src/db/pglite-head-start.ts';
import { ServerPGlite } from '../src/db/server-pglite.ts';

/** The embedded database's thread started before the server has loaded (`main.ts`), then taken by its database. */
describe('the head start of the embedded database', () => {
  const dirs: string[] = [];
  const open: ServerPGlite[] = [];
  const early: Worker[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vw-head-start-'));
    dirs.push(dir);
    return path.join(dir, 'db');
  };
  const database = (dir: string) => {
    const db = new ServerPGlite({ dataDir: dir });
    open.push(db);
    return db;
  };
  /** A database on disk with one row, closed. */
  const existing = async () => {
    const dir = dataDir();
    const db = new ServerPGlite({ dataDir: dir });
    await db.exec('create table kept (id int); insert into kept values (1)');
    await db.close();
    return dir;
  };
  afterEach(async () => {
    for (const db of open.splice(0)) await db.close();
    for (const worker of early.splice(0)) await worker.terminate();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['after it said its database is up, before anyone listened', true],
    ['while it is still starting', false],
  ])(
    'is the thread its database then runs on, taken %s',
    async (_, answeredFirst) => {
      const dir = await existing();
      const worker = startEarly(dir);
      expect(worker).toBeDefined();
      early.push(worker!);
      if (answeredFirst) await new Promise((resolve) => worker!.once('message', resolve));
      const db = database(dir);
      await db.waitReady;
      expect(db.thread).toBe(worker);
      expect((await db.query<{ id: number }>('select id from kept')).rows).toEqual([{ id: 1 }]);
    },
    60_000,
  );

  it('is ended when the database starts on another directory, which gets a thread of its own', async () => {
    const [dir, other] = [await existing(), await existing()];
    const worker = startEarly(dir)!;
    early.push(worker);
    const ended = new Promise((resolve) => worker.once('exit', resolve));
    const db = database(other);
    await db.waitReady;
    await ended;
    expect(db.thread).not.toBe(worker);
    expect((await db.query<{ id: number }>('select id from kept')).rows).toEqual([{ id: 1 }]);
  }, 60_000);

  it('is not made for a database yet to be created, nor for one another live process holds', async () => {
    expect(startEarly(dataDir())).toBeUndefined();
    const dir = await existing();
    const lock = path.join(dir, '..', 'pglite.lock');
    writeFileSync(lock, String(process.ppid));
    expect(startEarly(dir)).toBeUndefined();
    // Refused for those reasons, not because a thread started early was still waiting to be taken.
    rmSync(lock);
    const worker = startEarly(dir);
    expect(worker).toBeDefined();
    early.push(worker!);
    const db = database(dir);
    await db.waitReady;
    expect(db.thread).toBe(worker);
  }, 60_000);
});
