import type { AuditEntry, AuditPage } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RETENTION, TimePartitions } from '../src/db/partitions.ts';
import { createDevice, postAlert, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, unique, useTestApp } from './helpers.ts';

describe.each(dbTargets())('audit log on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });

  const post = (url: string, who: TestUser, payload?: object) =>
    built().app.inject({ method: 'POST', url, headers: who.auth, ...(payload ? { payload } : {}) });
  const audit = async (query: string, who: TestUser = admin) => {
    const res = await built().app.inject({
      method: 'GET',
      url: `/api/v1/admin/audit?${query}`,
      headers: who.auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: AuditPage }>().data;
  };
  const entriesFor = async (targetId: string) => (await audit(`targetId=${targetId}&limit=200`)).entries;

  it('records sign-ins (failed ones with the name typed), sign-outs and password changes', async () => {
    const user = await signup(built());
    const login = (password: string) =>
      built().app.inject({
        method: 'POST',
        url: '/api/v1/user/login',
        payload: { user: { username: user.user.username, password } },
      });
    expect((await login('wrong-password')).statusCode).toBe(401);
    expect((await login(user.password)).statusCode).toBe(200);
    const wrongOld = await post('/api/v1/user/change-password', user, {
      oldPassword: 'not-it-at-all',
      newPassword: 'Another1Passw0rd!',
      cnfPassword: 'Another1Passw0rd!',
    });
    expect(wrongOld.statusCode).toBeGreaterThanOrEqual(400);
    expect((await post('/api/v1/user/logout', user, { refreshToken: user.refreshToken })).statusCode).toBe(
      200,
    );

    const mine = (await audit(`actor=${user.user.username}&limit=200`)).entries;
    expect(mine.map((e) => [e.action, e.outcome])).toEqual([
      ['sign-out', 'success'],
      ['password-change', 'failure'],
      ['sign-in', 'success'],
      ['sign-in', 'failure'],
      ['sign-up', 'success'],
    ]);
    expect(mine.find((e) => e.outcome === 'failure' && e.action === 'sign-in')).toMatchObject({
      actorId: null,
      actorName: user.user.username,
      detail: { reason: 'wrong name or password' },
    });
    expect(
      (await audit('action=sign-in&outcome=failure&limit=200')).entries.every((e) => e.outcome === 'failure'),
    ).toBe(true);
  });

  it('records what admins do to users and devices, with who, from where and the facts', async () => {
    const user = await signup(built());
    const edited = await post(`/api/v1/admin/edit-user/${user.user._id}`, admin, {
      fullName: 'Renamed User',
      username: user.user.username,
      email: user.user.email,
      role: 'admin',
    });
    expect(edited.statusCode).toBe(200);
    expect(
      (await post(`/api/v1/admin/reset-password/${user.user._id}`, admin, { newPassword: 'N3wPassword!' }))
        .statusCode,
    ).toBe(200);
    const forUser = await entriesFor(user.user._id);
    expect(forUser.map((e) => e.action)).toEqual(['password-reset', 'role-change', 'user-update', 'sign-up']);
    const roleChange = forUser.find((e) => e.action === 'role-change')!;
    expect(roleChange).toMatchObject<Partial<AuditEntry>>({
      outcome: 'success',
      actorId: admin.user._id,
      actorName: admin.user.username,
      targetType: 'user',
      ip: '127.0.0.1',
      detail: { username: user.user.username, from: 'user', to: 'admin' },
    });

    const device = await createDevice(built(), admin);
    expect(
      (await post(`/api/v1/admin/regenerate-code/${device._id}?codeType=apiAuthCode`, admin)).statusCode,
    ).toBe(200);
    expect(
      (await post(`/api/v1/admin/change-validity/${device._id}`, admin, { isValid: false })).statusCode,
    ).toBe(200);
    expect((await post(`/api/v1/admin/delete-device/${device._id}`, admin)).statusCode).toBe(200);
    expect((await entriesFor(device._id)).map((e) => [e.action, e.detail])).toEqual([
      ['device-delete', {}],
      ['device-validity', { isValid: false }],
      ['device-code-regenerate', { codeType: 'apiAuthCode' }],
      ['device-create', { deviceName: device.deviceName, users: '' }],
    ]);
  });

  it('records a device added by its activation code and an alert acknowledged or resolved', async () => {
    const { user, device } = await userWithDevice(built(), admin);
    const other = await signup(built());
    const added = await post('/api/v1/device/add-device', other, {
      data: { activationCode: device.activationCode },
    });
    expect(added.statusCode, added.body).toBe(200);
    expect((await entriesFor(device._id)).find((e) => e.action === 'device-assign')).toMatchObject({
      actorId: other.user._id,
    });

    expect(
      (await postAlert(built(), device.apiAuthCode, { alertType: 'SOS', messageId: unique('sos') }))
        .statusCode,
    ).toBe(202);
    const alerts = await post('/api/v1/alert/all', user);
    const alertId = alerts.json<{ data: { alerts: { _id: string }[] } }>().data.alerts[0]!._id;
    expect((await post(`/api/v1/alert/acknowledge/${alertId}`, user, {})).statusCode).toBe(200);
    // Acknowledging again changes nothing, and is not recorded again.
    expect((await post(`/api/v1/alert/acknowledge/${alertId}`, user, {})).statusCode).toBe(200);
    expect((await post(`/api/v1/alert/resolve/${alertId}`, user, {})).statusCode).toBe(200);
    expect((await entriesFor(alertId)).map((e) => [e.action, e.actorId])).toEqual([
      ['alert-resolve', user.user._id],
      ['alert-acknowledge', user.user._id],
    ]);
  });

  it('is for admins only, filters, and pages back without repeating or skipping an entry', async () => {
    const user = await signup(built());
    const refused = await built().app.inject({
      method: 'GET',
      url: '/api/v1/admin/audit',
      headers: user.auth,
    });
    expect(refused.statusCode).toBe(403);
    expect((await built().app.inject({ method: 'GET', url: '/api/v1/admin/audit' })).statusCode).toBe(401);
    expect(
      (
        await built().app.inject({
          method: 'GET',
          url: '/api/v1/admin/audit?action=nope',
          headers: admin.auth,
        })
      ).statusCode,
    ).toBe(400);

    for (let i = 0; i < 5; i++) await createDevice(built(), admin);
    const all = (await audit('action=device-create&limit=200')).entries;
    expect(all.length).toBeGreaterThanOrEqual(5);
    expect(all.every((e) => e.action === 'device-create')).toBe(true);
    const paged: AuditEntry[] = [];
    let before: string | null = null;
    do {
      const page: AuditPage = await audit(`action=device-create&limit=2${before ? `&before=${before}` : ''}`);
      paged.push(...page.entries);
      before = page.nextBefore;
    } while (before);
    expect(paged.map((e) => e.id)).toEqual(all.map((e) => e.id));
    expect(
      (await audit(`actor=${admin.user.username.slice(2, 8).toUpperCase()}&limit=1`)).entries[0]?.actorId,
    ).toBe(admin.user._id);
  });

  it('cannot be changed, deleted or truncated (also as a replica), and leaves only with whole partitions past AUDIT_RETENTION_DAYS', async () => {
    const { db } = built().ctx;
    // The driver's error wraps the database's, which names the rule.
    const refusal = (work: Promise<unknown>) =>
      work.then(
        () => 'done',
        (err: Error) => `${err.message} ${err.cause instanceof Error ? err.cause.message : ''}`,
      );
    expect(await refusal(db.execute(sql`update audit_events set action = 'sign-in'`))).toMatch(/append-only/);
    expect(await refusal(db.execute(sql`delete from audit_events`))).toMatch(/append-only/);
    expect(await refusal(db.execute(sql`truncate audit_events`))).toMatch(/append-only: TRUNCATE/);
    // Truncating a partition fires only its own triggers: each has one, also a partition made after the migrations.
    const later = new Date(Date.now() + 400 * 86_400_000);
    await new TimePartitions(db, DEFAULT_RETENTION).ensure(later, later);
    const parts = await db.execute(
      sql`select inhrelid::regclass::text as name from pg_inherits where inhparent = 'audit_events'::regclass`,
    );
    const names = (parts as unknown as { rows: { name: string }[] }).rows.map((r) => r.name);
    expect(names).toContain(`audit_events_p${later.toISOString().slice(0, 7).replace('-', '')}01`);
    for (const name of names) {
      expect(await refusal(db.execute(sql.raw(`truncate ${name}`)))).toMatch(/append-only: TRUNCATE/);
    }
    // Replication mode silences ordinary triggers, not these.
    const asReplica = (statement: string) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx.execute(sql.raw(statement));
      });
    expect(await refusal(asReplica('delete from audit_events'))).toMatch(/append-only: DELETE/);
    expect(await refusal(asReplica(`truncate ${names[0]}`))).toMatch(/append-only: TRUNCATE/);
    // An entry of 400 days ago (as a restored backup would hold), then maintenance with a year's retention.
    const old = new Date(Date.now() - 400 * 86_400_000);
    const partitions = new TimePartitions(db, { raw: 90, rollups: 730, audit: 365 });
    await partitions.ensure(old, old);
    await db.execute(
      sql`insert into audit_events (at, action, outcome, ip) values (${old.toISOString()}::timestamptz, 'sign-in', 'success', '10.0.0.1')`,
    );
    const { dropped } = await partitions.maintain();
    expect(dropped.some((name) => name.startsWith('audit_events_p'))).toBe(true);
    const left = await db.execute(
      sql`select count(*)::int as n from audit_events where at < now() - interval '365 days'`,
    );
    expect((left as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(0);
    expect((await audit('limit=1')).entries.length).toBe(1);
  });
});
