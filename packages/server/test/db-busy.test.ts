import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { isTransientDbError } from '../src/db/transient-error.ts';
import { createDevice, postAlert } from './device-helpers.ts';
import { createAdmin, dbTargets, type TestUser, useTestApp } from './helpers.ts';

const failureOf = (work: Promise<unknown>) =>
  work.then(
    () => null,
    (error: unknown) => error,
  );

/**
 * A database busy for a moment (every connection taken, a statement over its limit) is a 503 with
 * Retry-After that a device sends again, not a 500; a fault of the code or the schema stays a 500.
 */
describe.each(dbTargets())('a database busy for a moment on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });

  it("tells the driver's errors apart: a missing table is no moment's trouble", async () => {
    const missing = await failureOf(built().ctx.db.execute(sql`select * from no_such_table`));
    expect(missing).not.toBeNull();
    expect(isTransientDbError(missing)).toBe(false);
    if (target.name !== 'postgres') return;
    const timedOut = await failureOf(
      built().ctx.db.transaction(async (tx) => {
        await tx.execute(sql`set local statement_timeout = 50`);
        await tx.execute(sql`select pg_sleep(1)`);
      }),
    );
    expect(isTransientDbError(timedOut)).toBe(true);
  });

  it.runIf(target.name === 'postgres')(
    'with every connection taken, an alert is answered 503 with Retry-After, and stored when sent again',
    async () => {
      const device = await createDevice(built(), admin);
      const { db } = built().ctx;
      // The test pool's 10 connections, each held for 7 s: the request waits its 5 s for one.
      const held = Array.from({ length: 10 }, () =>
        db.transaction(async (tx) => {
          await tx.execute(sql`select pg_sleep(7)`);
        }),
      );
      await new Promise((r) => setTimeout(r, 300));
      const busy = await postAlert(built(), device.apiAuthCode, { alertType: 'SOS' });
      expect(busy.statusCode).toBe(503);
      expect(busy.headers['retry-after']).toBe('1');
      expect(busy.json()).toMatchObject({ success: false, code: 'BUSY' });
      await Promise.all(held);
      const again = await postAlert(built(), device.apiAuthCode, { alertType: 'SOS' });
      expect(again.statusCode).toBe(202);
    },
    30_000,
  );
});
