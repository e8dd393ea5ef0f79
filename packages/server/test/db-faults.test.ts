import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltApp, buildApp } from '../src/app.ts';
import { createDatabase } from '../src/db/index.ts';
import { startDbProxy } from './db-proxy.ts';
import { createDevice, postHealth } from './device-helpers.ts';
import { createAdmin, createScratchDatabase, eventually, testConfig } from './helpers.ts';

const serverUrl = process.env.TEST_DATABASE_URL;

// The real server on PostgreSQL through a proxy the test controls (skipped without a server).
describe.skipIf(!serverUrl)('when PostgreSQL stumbles', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let proxy: Awaited<ReturnType<typeof startDbProxy>>;
  let built: BuiltApp;
  beforeAll(async () => {
    scratch = await createScratchDatabase(serverUrl!);
    proxy = await startDbProxy(new URL(scratch.url));
    const database = await createDatabase({ databaseUrl: proxy.url, pgliteDir: 'memory', poolSize: 10 });
    await database.migrate();
    built = await buildApp(testConfig({ ingest: { offlineSweepIntervalMs: 0, escalationIntervalMs: 0 } }), {
      database,
    });
  });
  afterAll(async () => {
    await built?.app.close();
    await proxy?.close();
    await scratch?.drop();
  });

  const readyz = () => built.app.inject({ method: 'GET', url: '/readyz' });

  it('stays up when its sessions are terminated mid-transaction, and serves again at once', async () => {
    const admin = await createAdmin(built);
    const device = await createDevice(built, admin);
    const killer = new pg.Client({ connectionString: serverUrl });
    await killer.connect();
    const inTransaction = built.ctx.db.transaction(async (tx) => {
      await tx.execute('select 1');
      // Every session of the server, this one included, ended while it waits inside the transaction.
      await killer.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [scratch.name],
      );
      await new Promise((r) => setTimeout(r, 200));
      await tx.execute('select 1');
    });
    await expect(inTransaction).rejects.toThrow();
    await killer.end();
    // An unhandled 'error' event would have ended the test process before this line.
    expect((await postHealth(built, device.apiAuthCode, { spo2: 97 })).statusCode).toBe(202);
    expect((await readyz()).statusCode).toBe(200);
  });

  it('answers /readyz 503 within 2 s while the network drops every packet, and 200 once it is back', async () => {
    expect((await readyz()).statusCode).toBe(200);
    proxy.blackhole();
    const started = performance.now();
    const res = await readyz();
    expect(res.statusCode).toBe(503);
    expect(res.json().checks.database).toBe('down');
    expect(performance.now() - started).toBeLessThan(2000);

    // The network returns; connections that lost bytes are gone (TCP gave up on them).
    proxy.reset();
    proxy.forward();
    const back = performance.now();
    await eventually(async () => (await readyz()).statusCode === 200, 5000);
    expect(performance.now() - back).toBeLessThan(5000);
  });
});
