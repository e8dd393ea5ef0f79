import { randomBytes } from 'node:crypto';
import { type FleetDevicePage, fleetDevicePage, fleetDeviceQuery, fleetUserQuery } from '@vitalwatch/shared';
import { count, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Tx } from '../src/db/index.ts';
import { rawRows } from '../src/db/raw-rows.ts';
import { devices, users } from '../src/db/schema.ts';
import { cursorOf, encodeCursor } from '../src/modules/fleet/keyset.ts';
import * as repo from '../src/modules/fleet/repository.ts';
import { dbTargets, signup, useTestApp } from './helpers.ts';

const newDevices = (tag: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    deviceName: `${tag} ${i + 1}`,
    activationCode: randomBytes(6).toString('hex').toUpperCase(),
    apiAuthCode: randomBytes(16).toString('hex'),
  }));

/** A page of devices as the reply's `data` (the database writes it: `devicePageJson`). */
const devicePage = async (tx: Tx, query: Record<string, unknown>): Promise<FleetDevicePage> =>
  fleetDevicePage.strict().parse(JSON.parse(await repo.devicePageJson(tx, fleetDeviceQuery.parse(query))));

/** What a first page says the whole fleet / all users hold, and what count(*) says, in one snapshot. */
const fleetTotal = async (tx: Tx) => ({
  said: (await devicePage(tx, { limit: 1 })).total,
  counted: (await tx.select({ n: count() }).from(devices))[0]!.n,
});
const usersTotal = async (tx: Tx) => ({
  said: (await repo.userPageRows(tx, fleetUserQuery.parse({ limit: 1 })))[0]?.total ?? 0,
  counted: (await tx.select({ n: count() }).from(users))[0]!.n,
});

/** Thrown to roll a transaction back once its checks are done. */
class Rollback extends Error {}
const rolledBack = async (run: () => Promise<void>) => {
  await expect(run()).rejects.toBeInstanceOf(Rollback);
};

/**
 * The first page's whole-match count comes in the page's own query (issue 31): a window count
 * beside a filtered page, and for the unfiltered lists the counts migration 0027's triggers keep,
 * which must stay as exact as count(*) through inserts, deletes, truncation and rollbacks.
 */
describe.each(dbTargets())('the admin fleet counts on $name', (target) => {
  const built = useTestApp(target);

  it('gives a first page the whole match, and a later page none', async () => {
    const { db } = built().ctx;
    const tag = `count-${randomBytes(4).toString('hex')}`;
    await db.insert(devices).values(newDevices(tag, 3));
    const byName = { q: tag, sort: 'name', dir: 'asc', limit: 2 } as const;
    const first = await devicePage(db, byName);
    expect(first.total).toBe(3);
    expect(first.devices.map((d) => d.deviceName)).toEqual([`${tag} 1`, `${tag} 2`]);
    // The cursor the database wrote is the one the keyset code reads: the last row's key and id.
    const last = first.devices[1]!;
    expect(first.nextCursor).toBe(encodeCursor(last.deviceName.toLowerCase(), last._id));
    const later = await devicePage(db, { ...byName, after: first.nextCursor });
    expect(later.devices.map((d) => d.deviceName)).toEqual([`${tag} 3`]);
    expect([later.total, later.nextCursor]).toEqual([null, null]);
    expect(await devicePage(db, { q: `${tag} none` })).toEqual({ devices: [], total: 0, nextCursor: null });

    // A filter with an indexed order (counted beside the page, not by a window).
    await db.insert(devices).values(newDevices(`${tag}-off`, 2).map((d) => ({ ...d, isValid: false })));
    const invalid = await db.transaction(async (tx) => ({
      said: (await devicePage(tx, { validity: 'invalid', sort: 'name', limit: 1 })).total,
      counted: (await tx.select({ n: count() }).from(devices).where(eq(devices.isValid, false)))[0]!.n,
    }));
    expect(invalid.counted).toBeGreaterThanOrEqual(2);
    expect(invalid.said).toBe(invalid.counted);
  });

  it('writes a cursor byte for byte as the keyset code encodes it, whatever the key holds', async () => {
    const { db } = built().ctx;
    const id = '0b9e6f4e-5d1c-4c39-9a57-2f3c1d2e4b5a';
    const keys = [
      '',
      'plain',
      'quote " and \\ backslash',
      'tab\tline\nbell\u0007',
      'ünïcødé 🩺 名前',
      'x'.repeat(200),
    ];
    for (const key of keys) {
      const [row] = await rawRows(
        db,
        sql`select ${cursorOf(sql`${key}::text`, sql`${id}::uuid`)} as cursor`,
        z.object({ cursor: z.string() }),
      );
      expect(row?.cursor, JSON.stringify(key)).toBe(encodeCursor(key, id));
    }
  });

  it('keeps the whole fleet’s and all users’ counts exact through inserts, deletes and rollbacks', async () => {
    const { db } = built().ctx;
    const tag = `kept-${randomBytes(4).toString('hex')}`;
    const before = await fleetTotal(db);
    expect(before.said).toBe(before.counted);

    const added = await db.insert(devices).values(newDevices(tag, 4)).returning({ id: devices.id });
    expect(await fleetTotal(db)).toEqual({ said: before.counted + 4, counted: before.counted + 4 });
    await db.delete(devices).where(inArray(devices.id, [added[0]!.id, added[1]!.id]));
    expect(await fleetTotal(db)).toEqual({ said: before.counted + 2, counted: before.counted + 2 });
    await db.delete(devices).where(eq(devices.deviceName, `${tag} none`));
    expect((await fleetTotal(db)).said).toBe(before.counted + 2);

    // A transaction's inserts count in it, not outside it, and not at all once rolled back.
    await rolledBack(() =>
      db.transaction(async (tx) => {
        await tx.insert(devices).values(newDevices(`${tag}-tx`, 5));
        expect(await fleetTotal(tx)).toEqual({ said: before.counted + 7, counted: before.counted + 7 });
        // Seen from outside meanwhile (PGlite has one connection: the transaction holds it).
        if (target.name === 'postgres') expect((await fleetTotal(db)).said).toBe(before.counted + 2);
        throw new Rollback();
      }),
    );
    expect((await fleetTotal(db)).said).toBe(before.counted + 2);

    const people = await usersTotal(db);
    expect(people.said).toBe(people.counted);
    const someone = await signup(built());
    expect(await usersTotal(db)).toEqual({ said: people.counted + 1, counted: people.counted + 1 });
    await db.delete(users).where(eq(users.id, someone.user._id));
    expect(await usersTotal(db)).toEqual(people);
  });

  it('counts a truncated fleet as empty', async () => {
    const { db } = built().ctx;
    await db.insert(devices).values(newDevices(`trunc-${randomBytes(4).toString('hex')}`, 2));
    await rolledBack(() =>
      db.transaction(async (tx) => {
        await tx.execute(sql`truncate devices cascade`);
        expect(await fleetTotal(tx)).toEqual({ said: 0, counted: 0 });
        await tx.insert(devices).values(newDevices('after truncate', 1));
        expect(await fleetTotal(tx)).toEqual({ said: 1, counted: 1 });
        throw new Rollback();
      }),
    );
    const after = await fleetTotal(db);
    expect(after.said).toBe(after.counted);
  });
});
