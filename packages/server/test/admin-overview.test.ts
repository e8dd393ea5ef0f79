import type { AdminStats, UserGrowthEntry } from '@vitalwatch/shared';
import { describe, expect, it } from 'vitest';
import { alertReads, users } from '../src/db/schema.ts';
import { insertUser } from '../src/modules/user/repository.ts';
import { adminPost, insertAlert, insertDevice } from './admin-helpers.ts';
import { createAdmin, dbTargets, signup, unique, useTestApp } from './helpers.ts';

const DAY_MS = 24 * 3600_000;

/** The calendar day of an instant in a time zone, computed independently of the server (Intl). */
const localDay = (instant: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    instant,
  );
/** `YYYY-MM-DD` of the UTC day `offset` days from today, at `time` UTC. */
const utcDayAt = (offset: number, time: string) =>
  new Date(`${new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10)}T${time}Z`);

describe.each(dbTargets())('admin overview on $name', (target) => {
  const built = useTestApp(target);

  describe('stats', () => {
    it('counts users, devices and alerts nobody has read yet', async () => {
      const admin = await createAdmin(built());
      const before: AdminStats = (await adminPost(built(), 'stats', admin.auth)).json().data;

      const alice = await signup(built());
      const bob = await signup(built());
      const { db } = built().ctx;
      const deviceId = await insertDevice(db, [alice.user._id, bob.user._id]);
      await insertDevice(db);
      const readByAlice = await insertAlert(db, deviceId);
      const readByBoth = await insertAlert(db, deviceId);
      await insertAlert(db, deviceId);
      await db.insert(alertReads).values([
        { alertId: readByAlice, userId: alice.user._id },
        { alertId: readByBoth, userId: alice.user._id },
        { alertId: readByBoth, userId: bob.user._id },
      ]);

      const res = await adminPost(built(), 'stats', admin.auth);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ success: true, message: expect.any(String) });
      expect(res.json().data).toEqual({
        usersCount: before.usersCount + 2,
        devicesCount: before.devicesCount + 2,
        alertsUnreadCount: before.alertsUnreadCount + 1,
        channelHealth: expect.any(Object),
      });
    });
  });

  describe('user-growth', () => {
    const insertUserAt = (createdAt: Date) => {
      const username = unique('grown');
      return insertUser(built().ctx.db, {
        fullName: 'Grown',
        username,
        email: `${username}@example.com`,
        passwordHash: 'not-a-real-hash',
        createdAt,
      });
    };

    /** What the answer must be: every user in the database bucketed by the test, on the server's days. */
    const expectGrowthMatches = async (growth: UserGrowthEntry[], timeZone: string, todayBefore: string) => {
      expect(growth).toHaveLength(7);
      const today = localDay(new Date(), timeZone);
      expect([todayBefore, today]).toContain(growth[6]!.date);
      for (let i = 1; i < 7; i++) {
        const prev = new Date(`${growth[i - 1]!.date}T00:00:00Z`).getTime();
        expect(new Date(`${growth[i]!.date}T00:00:00Z`).getTime() - prev).toBe(DAY_MS);
      }
      const all = await built().ctx.db.select({ createdAt: users.createdAt }).from(users);
      const expected = growth.map(({ date }) => ({
        date,
        users: all.filter((u) => localDay(u.createdAt, timeZone) === date).length,
      }));
      expect(growth).toEqual(expected);
    };

    it('counts new users per UTC day for the last 7 days, days with none as 0', async () => {
      const admin = await createAdmin(built());
      const todayBefore = localDay(new Date(), 'UTC');
      await insertUserAt(utcDayAt(-6, '00:30:00'));
      await insertUserAt(utcDayAt(-3, '20:00:00'));
      await insertUserAt(utcDayAt(-3, '21:00:00'));
      await insertUserAt(utcDayAt(-9, '12:00:00'));

      for (const payload of [undefined, {}, { timeZone: 'UTC' }]) {
        const res = await adminPost(built(), 'user-growth', admin.auth, payload);
        expect(res.statusCode).toBe(200);
        const growth: UserGrowthEntry[] = res.json().data;
        await expectGrowthMatches(growth, 'UTC', todayBefore);
        const byDate = new Map(growth.map((g) => [g.date, g.users]));
        if (growth[6]!.date === todayBefore) {
          expect(byDate.get(localDay(utcDayAt(-3, '20:00:00'), 'UTC'))).toBe(2);
          expect(byDate.get(localDay(utcDayAt(-6, '00:30:00'), 'UTC'))).toBe(1);
        }
        expect(growth.some((g) => g.users === 0)).toBe(true);
      }
    });

    it.each([
      ['Asia/Kolkata', '20:00:00'],
      ['America/Los_Angeles', '03:00:00'],
      ['Pacific/Kiritimati', '12:00:00'],
    ])('counts days in the time zone %s (a user created at %s UTC moves a day)', async (timeZone, time) => {
      const admin = await createAdmin(built());
      const todayBefore = localDay(new Date(), timeZone);
      const shifted = utcDayAt(-3, time);
      await insertUserAt(shifted);
      await insertUserAt(utcDayAt(-5, '03:00:00'));

      const res = await adminPost(built(), 'user-growth', admin.auth, { timeZone });
      expect(res.statusCode).toBe(200);
      const growth: UserGrowthEntry[] = res.json().data;
      await expectGrowthMatches(growth, timeZone, todayBefore);
      // The same instant falls on another calendar day there than in UTC.
      expect(localDay(shifted, timeZone)).not.toBe(localDay(shifted, 'UTC'));
    });

    it('answers 400 for an unknown time zone or a raw offset', async () => {
      const admin = await createAdmin(built());
      for (const timeZone of ['Mars/Olympus_Mons', '+05:00', 'UTC+5', '', 42]) {
        const res = await adminPost(built(), 'user-growth', admin.auth, { timeZone });
        expect(res.statusCode).toBe(400);
        expect(res.json().issues[0].path).toBe('timeZone');
      }
    });
  });
});
