import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rawRows } from '../src/db/raw-rows.ts';
import { addByCode, createDevice, ownedDevice, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, useTestApp } from './helpers.ts';

/**
 * The kept counts of migrations 0033 and 0034 (each device's alerts and newest alerts, each user's
 * reads of each device) against count(*) over the tables, through every way alerts and reads come
 * and go; and the alert page's counts and first page from them against the same read through a
 * filter (which counts the rows and walks every device).
 */
describe.each(dbTargets())('kept alert counts on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  let admin: TestUser;
  let carer: TestUser;
  let partner: TestUser;
  let deviceA: string;
  let deviceB: string;

  const run = (query: ReturnType<typeof sql>) => built().ctx.db.execute(query);
  /** Rows where a kept count differs from the count of the rows it counts (none when exact). */
  const drift = async () =>
    rawRows(
      built().ctx.db,
      sql`select 'alerts' as kind, coalesce(e.device_id, k.device_id)::text as key from
          (select device_id, count(*) as n,
             (array_agg(id order by created_at desc, recorded_at desc, id desc))[1] as newest,
             (array_agg(id order by recorded_at desc, id desc))[1] as latest
           from alerts group by 1) e
          full join vw_counts.alert_counts k on k.device_id = e.device_id
          where coalesce(e.n, 0) <> coalesce(k.n, 0) or e.newest is distinct from k.newest_id
            or e.latest is distinct from k.latest_id
        union all
        select 'reads', coalesce(e.user_id, k.user_id)::text || '/' || coalesce(e.device_id, k.device_id)::text from
          (select r.user_id, a.device_id, count(*) as n from alert_reads r join alerts a on a.id = r.alert_id group by 1, 2) e
          full join vw_counts.alert_read_counts k on k.user_id = e.user_id and k.device_id = e.device_id
          where coalesce(e.n, 0) <> coalesce(k.n, 0)`,
      z.object({ kind: z.string(), key: z.string() }),
    );
  const page = async (user: TestUser, data: object) => {
    const res = await built().app.inject({
      method: 'POST',
      url: '/api/v1/alert/all',
      headers: user.auth,
      payload: data,
    });
    expect(res.statusCode).toBe(200);
    const { total, unreadCount, alerts } = res.json().data;
    return { total, unreadCount, ids: alerts.map((a: { _id: string }) => a._id) };
  };
  /**
   * The kept counts (no filter, or only the device) equal the rows counted through a filter, and the
   * first page from the devices with the newest alerts the first page through a filter.
   */
  const countsAgree = async (user: TestUser, deviceId?: string) => {
    const device = deviceId ? { deviceId } : {};
    const { ids, ...kept } = await page(user, { ...device, limit: 5 });
    expect({ ...kept, ids }).toEqual(
      await page(user, { ...device, limit: 5, from: '2000-01-01T00:00:00.000Z' }),
    );
    return kept;
  };
  const alertIds = async (deviceId: string, limit: number) =>
    (
      await rawRows(
        built().ctx.db,
        sql`select id::text from alerts where device_id = ${deviceId}::uuid order by recorded_at limit ${limit}`,
        z.object({ id: z.string() }),
      )
    ).map((r) => r.id);

  beforeAll(async () => {
    admin = await createAdmin(built());
    const a = await userWithDevice(built(), admin, 'Watch A');
    carer = a.user;
    deviceA = a.device._id;
    const b = await userWithDevice(built(), admin, 'Watch B');
    partner = b.user;
    deviceB = b.device._id;
    await built().app.inject({
      method: 'POST',
      url: '/api/v1/device/add-device',
      headers: carer.auth,
      payload: { data: { activationCode: b.device.activationCode } },
    });
    // 50 alerts on A and 30 on B in one statement: the insert trigger counts both devices.
    await run(sql`insert into alerts (device_id, alert_type, alert_title, alert_message, recorded_at)
      select case when s <= 50 then ${deviceA}::uuid else ${deviceB}::uuid end, 'FALL', 'Fall detected',
        'A fall was detected', now() - make_interval(mins => s)
      from generate_series(1, 80) s`);
  });

  it('counts every alert of the devices a user may see, all unread at first', async () => {
    expect(await drift()).toEqual([]);
    expect(await countsAgree(carer)).toEqual({ total: 80, unreadCount: 80 });
    expect(await countsAgree(partner)).toEqual({ total: 30, unreadCount: 30 });
    expect(await countsAgree(carer, deviceB)).toEqual({ total: 30, unreadCount: 30 });
  });

  it('counts reads per user and device as they are marked, once each', async () => {
    const ids = [...(await alertIds(deviceA, 20)), ...(await alertIds(deviceB, 5))];
    for (const user of [carer, carer, partner]) {
      const res = await built().app.inject({
        method: 'POST',
        url: '/api/v1/alert/mark-read',
        headers: user.auth,
        payload: { data: { alerts: ids } },
      });
      expect(res.statusCode).toBe(200);
    }
    expect(await drift()).toEqual([]);
    expect(await countsAgree(carer)).toEqual({ total: 80, unreadCount: 55 });
    expect(await countsAgree(carer, deviceA)).toEqual({ total: 50, unreadCount: 30 });
    // The partner may not see A: only B's five were marked for them.
    expect(await countsAgree(partner)).toEqual({ total: 30, unreadCount: 25 });
  });

  it("refuses to change an alert's device or times once stored (its counts and the bell's newest hold)", async () => {
    const [first] = await alertIds(deviceA, 1);
    const refused = await run(sql`update alerts set recorded_at = now() where id = ${first}::uuid`).catch(
      (err: { cause?: Error }) => err.cause?.message,
    );
    expect(refused).toMatch(/not changed once stored/);
    const moved = await run(
      sql`update alert_reads set user_id = ${partner.user._id}::uuid where user_id = ${carer.user._id}::uuid`,
    ).catch((err: { cause?: Error }) => err.cause?.message);
    expect(moved).toMatch(/not changed once stored/);
    await run(sql`update alerts set status = 'resolved' where id = ${first}::uuid`);
    expect(await drift()).toEqual([]);
  });

  it('counts and lists a device seen both directly and through a team once', async () => {
    const team = await built().app.inject({
      method: 'POST',
      url: '/api/v1/admin/teams',
      headers: admin.auth,
      payload: {
        name: 'Both ways',
        deviceIds: [deviceA],
        members: [{ userId: carer.user._id, role: 'primary' }],
      },
    });
    expect(team.statusCode, team.body).toBe(201);
    expect(await countsAgree(carer)).toEqual({ total: 80, unreadCount: 55 });
    const res = await built().app.inject({
      method: 'POST',
      url: '/api/v1/alert/all',
      headers: carer.auth,
      payload: { limit: 100 },
    });
    const ids = res.json().data.alerts.map((a: { _id: string }) => a._id);
    expect(ids).toHaveLength(80);
    expect(new Set(ids).size).toBe(80);
    const latest = await built().app.inject({
      method: 'POST',
      url: '/api/v1/alert/latest/5',
      headers: carer.auth,
    });
    const newest = latest.json().data.alerts.map((a: { _id: string }) => a._id);
    expect(newest).toEqual(ids.slice(0, 5));
  });

  it('gives the first page of a user of many devices from those whose newest alerts are newest', async () => {
    const watcher = await signup(built());
    const owned = await ownedDevice(built(), admin, watcher);
    const fleet = [owned._id];
    for (let i = 1; i < 12; i++)
      fleet.push((await createDevice(built(), admin, { users: [watcher.user._id] }))._id);
    // Alerts interleaved in device time across the devices, a different count on each; one device's
    // newest arrived last but happened long ago (buffered).
    await run(sql`insert into alerts (device_id, alert_type, alert_title, alert_message, recorded_at)
      select d.id, 'SOS', 'SOS', 'SOS pressed', now() - make_interval(mins => ((s * (d.i + 3) * 37) % 1000)::int)
      from unnest(${sql.param(fleet)}::uuid[]) with ordinality d(id, i), generate_series(1, 13) s
      where s <= (d.i * 7) % 13 + 1`);
    await run(sql`insert into alerts (device_id, alert_type, alert_title, alert_message, recorded_at, created_at)
      values (${fleet[0]}::uuid, 'FALL', 'Fall detected', 'buffered', now() - interval '3 days', now() + interval '1 minute')`);
    // The same device time on four devices, at the cut of the first pages: the ids order them.
    await run(sql`insert into alerts (device_id, alert_type, alert_title, alert_message, recorded_at)
      select d, 'SOS', 'SOS', 'SOS pressed', now() - interval '30 seconds'
      from unnest(${sql.param(fleet.slice(4, 8))}::uuid[]) d`);
    expect(await drift()).toEqual([]);
    // Limits whose tiers (the limit and one more, rounded up by `limitTier`) leave devices out.
    const agree = async () => {
      for (const limit of [1, 2, 3, 5]) {
        const kept = await page(watcher, { limit });
        expect(kept).toEqual(await page(watcher, { limit, from: '2000-01-01T00:00:00.000Z' }));
      }
    };
    await agree();
    // The newest alert by device time goes: its device's newest is found again among the rest.
    await run(sql`delete from alerts where id = (select id from alerts where device_id = any(${sql.param(fleet)}::uuid[])
      order by recorded_at desc, id desc limit 1)`);
    expect(await drift()).toEqual([]);
    await agree();
    // Someone waiting for the owner to confirm them, and a stranger, get none of these alerts.
    const waiting = await signup(built());
    const asked = await addByCode(built(), waiting, owned.activationCode);
    expect(asked.statusCode).toBe(403);
    for (const outsider of [waiting, await signup(built())]) {
      expect((await page(outsider, { limit: 5 })).ids).toEqual([]);
      const latest = await built().app.inject({
        method: 'POST',
        url: '/api/v1/alert/latest/5',
        headers: outsider.auth,
      });
      expect(latest.json().data.alerts).toEqual([]);
    }
  });

  it('stays exact when reads, alerts, a device or a user are deleted', async () => {
    const [firstA] = await alertIds(deviceA, 1);
    await run(sql`delete from alert_reads where alert_id = ${firstA}::uuid`);
    expect(await drift()).toEqual([]);
    expect(await countsAgree(carer)).toEqual({ total: 80, unreadCount: 56 });
    // An alert read by both, and its reads with it (the cascade).
    // The newest alert of A in the bell's order: the device's newest is found again among the rest.
    await run(sql`delete from alerts where id = (select id from alerts where device_id = ${deviceA}::uuid
      order by created_at desc, recorded_at desc, id desc limit 1)`);
    expect(await drift()).toEqual([]);
    expect(await countsAgree(carer)).toEqual({ total: 79, unreadCount: 55 });
    const [firstB] = await alertIds(deviceB, 1);
    await run(sql`delete from alerts where id = ${firstB}::uuid`);
    expect(await drift()).toEqual([]);
    expect(await countsAgree(carer)).toEqual({ total: 78, unreadCount: 55 });
    expect(await countsAgree(partner)).toEqual({ total: 29, unreadCount: 25 });
    const removed = await built().app.inject({
      method: 'POST',
      url: `/api/v1/admin/delete-device/${deviceB}`,
      headers: admin.auth,
    });
    expect(removed.statusCode).toBe(200);
    expect(await drift()).toEqual([]);
    expect(await countsAgree(carer)).toEqual({ total: 49, unreadCount: 30 });
    expect(await countsAgree(partner)).toEqual({ total: 0, unreadCount: 0 });
    const gone = await built().app.inject({
      method: 'POST',
      url: `/api/v1/admin/delete-user/${carer.user._id}`,
      headers: admin.auth,
    });
    expect(gone.statusCode).toBe(200);
    expect(await drift()).toEqual([]);
  });

  it('is emptied with the tables it counts', async () => {
    const stranger = await signup(built());
    expect(await countsAgree(stranger)).toEqual({ total: 0, unreadCount: 0 });
    await run(sql`truncate alert_reads`);
    expect(await drift()).toEqual([]);
    await run(sql`truncate alerts cascade`);
    expect(await drift()).toEqual([]);
  });
});
