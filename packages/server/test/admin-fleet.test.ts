import { randomBytes } from 'node:crypto';
import type {
  AdminDevice,
  FleetDevice,
  FleetDevicePage,
  FleetSummary,
  FleetUserPage,
} from '@vitalwatch/shared';
import {
  FLEET_MESSAGES,
  FLEET_SUMMARY_TTL_MS,
  fleetDevice,
  fleetDevicePage,
  fleetDevicePageResponse,
} from '@vitalwatch/shared';
import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { BuiltApp } from '../src/app.ts';
import { devices, deviceUsers } from '../src/db/schema.ts';
import { insertAlert } from './admin-helpers.ts';
import { postHealth } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, unique, useTestApp } from './helpers.ts';

const MINUTE = 60_000;

const adminGet = (built: BuiltApp, path: string, auth: TestUser['auth'] | undefined, query = {}) =>
  built.app.inject({
    method: 'GET',
    url: `/api/v1/admin/${path}?${new URLSearchParams(query)}`,
    ...(auth ? { headers: auth } : {}),
  });

interface Seed {
  name: string;
  lastSeenAgoMs?: number;
  battery?: number;
  isValid?: boolean;
  users?: string[];
  createdAt?: Date;
}

async function seedDevice(built: BuiltApp, s: Seed): Promise<string> {
  const { db } = built.ctx;
  const [row] = await db
    .insert(devices)
    .values({
      deviceName: s.name,
      activationCode: randomBytes(6).toString('hex').toUpperCase(),
      apiAuthCode: randomBytes(16).toString('hex'),
      isValid: s.isValid ?? true,
      lastUpdate: s.lastSeenAgoMs === undefined ? null : new Date(Date.now() - s.lastSeenAgoMs),
      battery: s.battery ?? null,
      ...(s.createdAt ? { createdAt: s.createdAt } : {}),
    })
    .returning({ id: devices.id });
  const id = row!.id;
  if (s.users?.length)
    await db.insert(deviceUsers).values(s.users.map((userId) => ({ deviceId: id, userId })));
  return id;
}

/** Every page of a device query, following nextCursor; `between` runs after each page. */
async function allDevicePages(
  built: BuiltApp,
  admin: TestUser,
  query: Record<string, string>,
  between: (page: number) => Promise<void> = async () => {},
): Promise<{ pages: FleetDevicePage[]; names: string[] }> {
  const pages: FleetDevicePage[] = [];
  let after: string | null = null;
  do {
    const res = await adminGet(built, 'devices', admin.auth, { ...query, ...(after ? { after } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<{ data: FleetDevicePage }>().data;
    pages.push(page);
    after = page.nextCursor;
    await between(pages.length);
  } while (after && pages.length < 50);
  return { pages, names: pages.flatMap((p) => p.devices.map((d) => d.deviceName)) };
}

const namesOf = (page: FleetDevicePage) => page.devices.map((d) => d.deviceName);

describe.each(dbTargets())('the admin fleet (paged lists) on $name', (target) => {
  const built = useTestApp(target);

  describe('GET /admin/devices', () => {
    it('pages in a stable order: inserts between pages cause no duplicate and no gap', async () => {
      const admin = await createAdmin(built());
      const tag = unique('pg');
      const seeded = ['b', 'd', 'f', 'h', 'j', 'l', 'n'].map((c) => `${tag}-${c}`);
      for (const name of seeded) await seedDevice(built(), { name });

      const { pages, names } = await allDevicePages(
        built(),
        admin,
        { q: tag, sort: 'name', dir: 'asc', limit: '3' },
        // After each page, one device before the position read so far and one after it.
        async (n) => {
          await seedDevice(built(), { name: `${tag}-a${n}` });
          await seedDevice(built(), { name: `${tag}-z${n}` });
        },
      );
      expect(new Set(names).size).toBe(names.length);
      expect(names.filter((n) => seeded.includes(n))).toEqual(seeded);
      expect(names.filter((n) => n.startsWith(`${tag}-a`))).toEqual([]);
      expect(names.filter((n) => n.startsWith(`${tag}-z`)).length).toBeGreaterThan(0);
      expect(pages[0]!.total).toBe(7);
      expect(pages.at(-1)!.nextCursor).toBeNull();
    });

    it('sorts by name, creation, last seen and battery both ways; unknown values come last going down', async () => {
      const admin = await createAdmin(built());
      const tag = unique('sort');
      const t0 = Date.now() - 60 * MINUTE;
      await seedDevice(built(), {
        name: `${tag}-Bravo`,
        lastSeenAgoMs: 5 * MINUTE,
        battery: 80,
        createdAt: new Date(t0),
      });
      await seedDevice(built(), {
        name: `${tag}-alpha`,
        lastSeenAgoMs: 90 * MINUTE,
        battery: 10,
        createdAt: new Date(t0 + 1000),
      });
      await seedDevice(built(), { name: `${tag}-charlie`, createdAt: new Date(t0 + 2000) });
      const order = async (sort: string, dir: string) =>
        (await allDevicePages(built(), admin, { q: tag, sort, dir, limit: '2' })).names.map((n) =>
          n.slice(tag.length + 1),
        );

      expect(await order('name', 'asc')).toEqual(['alpha', 'Bravo', 'charlie']);
      expect(await order('name', 'desc')).toEqual(['charlie', 'Bravo', 'alpha']);
      expect(await order('created', 'asc')).toEqual(['Bravo', 'alpha', 'charlie']);
      expect(await order('created', 'desc')).toEqual(['charlie', 'alpha', 'Bravo']);
      expect(await order('lastSeen', 'desc')).toEqual(['Bravo', 'alpha', 'charlie']);
      expect(await order('lastSeen', 'asc')).toEqual(['charlie', 'alpha', 'Bravo']);
      expect(await order('battery', 'desc')).toEqual(['Bravo', 'alpha', 'charlie']);
      expect(await order('battery', 'asc')).toEqual(['charlie', 'alpha', 'Bravo']);
    });

    it('filters by status, validity, assignment and low battery, and counts the whole match', async () => {
      const admin = await createAdmin(built());
      const user = await signup(built());
      const tag = unique('flt');
      await seedDevice(built(), {
        name: `${tag}-online`,
        lastSeenAgoMs: 2 * MINUTE,
        battery: 90,
        users: [user.user._id],
      });
      await seedDevice(built(), { name: `${tag}-offline`, lastSeenAgoMs: 30 * MINUTE, battery: 15 });
      await seedDevice(built(), {
        name: `${tag}-stale`,
        lastSeenAgoMs: 3 * 60 * MINUTE,
        battery: 50,
        isValid: false,
      });
      await seedDevice(built(), { name: `${tag}-never` });
      const match = async (filter: Record<string, string>) => {
        const res = await adminGet(built(), 'devices', admin.auth, { q: tag, sort: 'name', ...filter });
        const page = res.json<{ data: FleetDevicePage }>().data;
        expect(page.total).toBe(page.devices.length);
        return namesOf(page).map((n) => n.slice(tag.length + 1));
      };

      expect(await match({ status: 'online' })).toEqual(['online']);
      expect(await match({ status: 'offline', dir: 'asc' })).toEqual(['offline', 'stale']);
      expect(await match({ status: 'stale' })).toEqual(['stale']);
      expect(await match({ status: 'never' })).toEqual(['never']);
      expect(await match({ validity: 'invalid' })).toEqual(['stale']);
      expect((await match({ validity: 'valid', dir: 'asc' })).sort()).toEqual(['never', 'offline', 'online']);
      expect(await match({ assignment: 'assigned' })).toEqual(['online']);
      expect(await match({ assignment: 'unassigned', dir: 'asc' })).toEqual(['never', 'offline', 'stale']);
      expect(await match({ battery: 'low' })).toEqual(['offline']);
      expect(await match({ status: 'offline', battery: 'low' })).toEqual(['offline']);
    });

    it('draws the status lines at the exact time, not at the minute the last-seen index keeps', async () => {
      const admin = await createAdmin(built());
      const tag = unique('edge');
      // Ten seconds either side of each threshold: the minute of a reading 59 min 50 s ago is most
      // often more than an hour ago, but the device is not yet silent for an hour.
      for (const [name, ago] of [
        ['online-edge', 14 * MINUTE + 50_000],
        ['offline-edge', 15 * MINUTE + 10_000],
        ['offline-late', 59 * MINUTE + 50_000],
        ['stale-edge', 60 * MINUTE + 10_000],
      ] as const)
        await seedDevice(built(), { name: `${tag}-${name}`, lastSeenAgoMs: ago });
      const match = async (status: string) => {
        const res = await adminGet(built(), 'devices', admin.auth, { q: tag, status, sort: 'lastSeen' });
        // Sorted here: two readings 20 s apart may share a minute, and the order within one is by id.
        return namesOf(res.json<{ data: FleetDevicePage }>().data)
          .map((n) => n.slice(tag.length + 1))
          .sort();
      };
      expect(await match('online')).toEqual(['online-edge']);
      expect(await match('offline')).toEqual(['offline-edge', 'offline-late', 'stale-edge']);
      expect(await match('stale')).toEqual(['stale-edge']);
    });

    it('finds a device by part of its name in any case or by the start of its activation code', async () => {
      const admin = await createAdmin(built());
      const user = await signup(built());
      const tag = unique('srch');
      const id = await seedDevice(built(), { name: `Grandma ${tag} Kitchen`, users: [user.user._id] });
      await insertAlert(built().ctx.db, id);
      const [row] = await built().ctx.db.select().from(devices).where(eq(devices.id, id));

      const byName = await adminGet(built(), 'devices', admin.auth, { q: `${tag.toUpperCase()} kitch` });
      const found: FleetDevice[] = byName.json().data.devices;
      expect(found.map((d) => d._id)).toEqual([id]);
      expect(found[0]).toMatchObject({
        users: [user.user._id],
        userNames: [user.user.username],
        openAlerts: 1,
      });

      const byCode = await adminGet(built(), 'devices', admin.auth, {
        q: row!.activationCode.slice(0, 8).toLowerCase(),
      });
      expect(byCode.json().data.devices.map((d: FleetDevice) => d._id)).toContain(id);

      const literal = await adminGet(built(), 'devices', admin.auth, { q: `${tag}%` });
      expect(literal.json().data).toMatchObject({ devices: [], total: 0, nextCursor: null });
    });

    it('keeps the battery of the newest reading that reported one', async () => {
      const admin = await createAdmin(built());
      const res = await built().app.inject({
        method: 'POST',
        url: '/api/v1/admin/add-device',
        headers: admin.auth,
        payload: { deviceName: unique('bat') },
      });
      const device = res.json().data.device;
      const at = (ago: number) => new Date(Date.now() - ago).toISOString();
      expect(
        (
          await postHealth(built(), device.apiAuthCode, {
            spo2: 97,
            heartRate: 70,
            battery: 55,
            recordedAt: at(2 * MINUTE),
          })
        ).statusCode,
      ).toBeLessThan(300);
      expect(
        (
          await postHealth(built(), device.apiAuthCode, {
            spo2: 97,
            heartRate: 70,
            battery: 90,
            recordedAt: at(10 * MINUTE),
          })
        ).statusCode,
      ).toBeLessThan(300);
      expect(
        (await postHealth(built(), device.apiAuthCode, { spo2: 97, heartRate: 71, recordedAt: at(MINUTE) }))
          .statusCode,
      ).toBeLessThan(300);

      const page = await adminGet(built(), 'devices', admin.auth, { q: device.deviceName });
      expect(page.json().data.devices[0]).toMatchObject({ battery: 55 });
    });

    it("writes each device as the spec's every-device list shows it, with the fleet's columns", async () => {
      const admin = await createAdmin(built());
      const [carer, backup] = [await signup(built()), await signup(built())];
      const tag = unique('json');
      const odd = await seedDevice(built(), {
        name: `${tag} "quoted" \\ ünïcødé 🩺`,
        lastSeenAgoMs: 3 * MINUTE,
        battery: 36.6,
        users: [carer.user._id],
      });
      await built()
        .ctx.db.insert(deviceUsers)
        // A circle lists its people in the order they joined: on PGlite two inserts can share a
        // clock tick, and the tie would fall to the random ids.
        .values({
          deviceId: odd,
          userId: backup.user._id,
          contactRole: 'backup',
          createdAt: new Date(Date.now() + 1000),
        });
      // Microseconds in the database: JavaScript's dates keep the milliseconds, truncated.
      await built()
        .ctx.db.update(devices)
        .set({
          lastUpdate: sql`'2026-11-28 06:22:08.123999+00'::timestamptz`,
          make: 'Acme',
          model: 'O2 Ring',
        })
        .where(eq(devices.id, odd));
      await insertAlert(built().ctx.db, odd);
      await seedDevice(built(), { name: `${tag} never` });

      const res = await adminGet(built(), 'devices', admin.auth, { q: tag, sort: 'name' });
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const page = fleetDevicePageResponse
        .extend({ data: fleetDevicePage.extend({ devices: z.array(fleetDevice.strict()) }).strict() })
        .strict()
        .parse(res.json());
      expect(page.message).toBe(FLEET_MESSAGES.devices);
      const all = await built().app.inject({
        method: 'POST',
        url: '/api/v1/admin/all-devices',
        headers: admin.auth,
      });
      const spec = new Map(
        all.json<{ data: { devices: AdminDevice[] } }>().data.devices.map((d) => [d._id, d]),
      );
      expect(page.data.devices).toHaveLength(2);
      for (const { userNames, battery, openAlerts, ...device } of page.data.devices) {
        expect(device).toEqual(spec.get(device._id));
        expect(userNames).toEqual(
          device.users.map((id) => (id === carer.user._id ? carer.user.username : backup.user.username)),
        );
        if (device._id === odd) expect([battery, openAlerts]).toEqual([36.6, 1]);
        else expect([battery, openAlerts]).toEqual([null, 0]);
      }
      const oddDevice = page.data.devices.find((d) => d._id === odd);
      expect(oddDevice).toMatchObject({
        lastUpdate: '2026-11-28T06:22:08.123Z',
        users: [carer.user._id, backup.user._id],
        backupUsers: [backup.user._id],
        make: 'Acme',
      });
    });

    it('answers 400 per field for a bad sort, filter or cursor; 401 and 403 without an admin', async () => {
      const admin = await createAdmin(built());
      const bad = await adminGet(built(), 'devices', admin.auth, {
        sort: 'colour',
        status: 'asleep',
        limit: '1000',
      });
      expect(bad.statusCode).toBe(400);
      expect(
        bad
          .json()
          .issues.map((i: { path: string }) => i.path)
          .sort(),
      ).toEqual(['limit', 'sort', 'status']);
      const cursor = await adminGet(built(), 'devices', admin.auth, { after: 'bm90LWEtY3Vyc29y' });
      expect(cursor.statusCode).toBe(400);
      expect(cursor.json().issues).toEqual([
        { path: 'after', message: "Must be a page's nextCursor for the same sort" },
      ]);
      const wrongSort = await adminGet(built(), 'devices', admin.auth, {
        sort: 'created',
        after: Buffer.from(JSON.stringify(['not a time', '00000000-0000-4000-8000-000000000000'])).toString(
          'base64url',
        ),
      });
      expect(wrongSort.statusCode).toBe(400);
      expect((await adminGet(built(), 'devices', undefined)).statusCode).toBe(401);
      expect((await adminGet(built(), 'devices', (await signup(built())).auth)).statusCode).toBe(403);
    });
  });

  describe('GET /admin/users', () => {
    it('searches name, username, e-mail and role, counts the whole match and pages without repeats', async () => {
      const admin = await createAdmin(built());
      const tag = unique('ppl');
      const made = [];
      for (let i = 0; i < 5; i++) made.push(await signup(built(), { fullName: `Pat ${tag} ${i}` }));
      const byEmail = await signup(built(), { email: `${tag}-mail@example.com` });

      const first = await adminGet(built(), 'users', admin.auth, { q: tag.toUpperCase(), limit: '2' });
      const page1 = first.json<{ data: FleetUserPage }>().data;
      expect(page1.total).toBe(6);
      expect(page1.users).toHaveLength(2);
      const ids = page1.users.map((u) => u._id);
      let after = page1.nextCursor;
      while (after) {
        const page = (await adminGet(built(), 'users', admin.auth, { q: tag, limit: '2', after })).json<{
          data: FleetUserPage;
        }>().data;
        ids.push(...page.users.map((u) => u._id));
        after = page.nextCursor;
      }
      expect(ids).toEqual([...made.map((u) => u.user._id), byEmail.user._id]);

      const byUsername = await adminGet(built(), 'users', admin.auth, { q: made[2]!.user.username });
      expect(byUsername.json().data.users.map((u: { _id: string }) => u._id)).toEqual([made[2]!.user._id]);
      expect(byUsername.body).not.toMatch(/passwordHash|password_hash/);

      const admins = (await adminGet(built(), 'users', admin.auth, { q: 'Admin', limit: '100' })).json().data;
      expect(admins.users.map((u: { _id: string }) => u._id)).toContain(admin.user._id);
      const byRole = (await adminGet(built(), 'users', admin.auth, { role: 'admin', limit: '100' })).json()
        .data;
      expect(byRole.users.every((u: { role: string }) => u.role === 'admin')).toBe(true);

      const byName = (
        await adminGet(built(), 'users', admin.auth, { q: tag, sort: 'name', dir: 'desc' })
      ).json().data;
      const pats = byName.users
        .map((u: { fullName: string }) => u.fullName)
        .filter((n: string) => n.startsWith('Pat'));
      expect(pats).toEqual([4, 3, 2, 1, 0].map((i) => `Pat ${tag} ${i}`));
      expect((await adminGet(built(), 'users', (await signup(built())).auth)).statusCode).toBe(403);
    });
  });

  describe('GET /admin/fleet-summary', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('counts devices offline over an hour, low on battery, never reported and unassigned, as of a time', async () => {
      const admin = await createAdmin(built());
      const user = await signup(built());
      // Only the clock: the database driver's timers run as ever. Signed in first, since a token
      // dated before the account's creation (the database's clock) is refused.
      vi.useFakeTimers({ toFake: ['Date'] });
      const summary = async () => {
        const res = await adminGet(built(), 'fleet-summary', admin.auth);
        expect(res.statusCode, res.body).toBe(200);
        return res.json<{ data: FleetSummary }>().data;
      };
      // Past whatever an earlier test left in the server's copy.
      vi.setSystemTime(Date.now() + FLEET_SUMMARY_TTL_MS);
      const before = await summary();
      expect(before.asOf).toBe(new Date().toISOString());
      const tag = unique('sum');
      await seedDevice(built(), {
        name: `${tag}-1`,
        lastSeenAgoMs: 2 * 60 * MINUTE,
        battery: 12,
        users: [user.user._id],
      });
      await seedDevice(built(), { name: `${tag}-2`, lastSeenAgoMs: 30 * MINUTE, battery: 40 });
      await seedDevice(built(), { name: `${tag}-3` });

      // Within the TTL the same counts, stamped with the time they were taken.
      vi.setSystemTime(Date.now() + FLEET_SUMMARY_TTL_MS - 1000);
      expect(await summary()).toEqual(before);

      vi.setSystemTime(Date.now() + 1000);
      const after = await summary();
      expect(after).toEqual({
        offlineOverHour: before.offlineOverHour + 1,
        lowBattery: before.lowBattery + 1,
        neverReported: before.neverReported + 1,
        unassigned: before.unassigned + 2,
        asOf: new Date().toISOString(),
      });
    });
  });
});
