import { randomBytes } from 'node:crypto';
import type { AuditPage, FleetDevicePage, FleetUserPage } from '@vitalwatch/shared';
import { describe, expect, it } from 'vitest';
import type { BuiltApp } from '../src/app.ts';
import { devices, deviceUsers } from '../src/db/schema.ts';
import { createAdmin, dbTargets, signup, type TestUser, unique, useTestApp } from './helpers.ts';

const get = async <T>(built: BuiltApp, admin: TestUser, path: string, query: Record<string, string>) => {
  const res = await built.app.inject({
    method: 'GET',
    url: `/api/v1/admin/${path}?${new URLSearchParams(query)}`,
    headers: admin.auth,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: T }>().data;
};

async function device(built: BuiltApp, name: string, userIds: string[] = []): Promise<string> {
  const [row] = await built.ctx.db
    .insert(devices)
    .values({
      deviceName: name,
      activationCode: randomBytes(6).toString('hex').toUpperCase(),
      apiAuthCode: randomBytes(16).toString('hex'),
    })
    .returning({ id: devices.id });
  if (userIds.length)
    await built.ctx.db.insert(deviceUsers).values(userIds.map((userId) => ({ deviceId: row!.id, userId })));
  return row!.id;
}

describe.each(dbTargets())(
  'the admin fleet: team filter, assigned-user search, counts on $name',
  (target) => {
    const built = useTestApp(target);

    it('counts the whole match on the first page only, for devices, users and the audit log', async () => {
      const admin = await createAdmin(built());
      await signup(built());
      const tag = unique('cnt');
      for (let i = 0; i < 5; i++) await device(built(), `${tag} ${i}`);
      const first = await get<FleetDevicePage>(built(), admin, 'devices', { q: tag, limit: '2' });
      expect(first.total).toBe(5);
      const second = await get<FleetDevicePage>(built(), admin, 'devices', {
        q: tag,
        limit: '2',
        after: first.nextCursor!,
      });
      expect(second.devices).toHaveLength(2);
      expect(second.total).toBeNull();

      const users = await get<FleetUserPage>(built(), admin, 'users', { limit: '1' });
      expect(users.total).toBeGreaterThan(0);
      expect(
        (await get<FleetUserPage>(built(), admin, 'users', { limit: '1', after: users.nextCursor! })).total,
      ).toBeNull();

      const audit = await get<AuditPage>(built(), admin, 'audit', { action: 'sign-in', limit: '1' });
      expect(audit.total).toBeGreaterThan(0);
      const older = await get<AuditPage>(built(), admin, 'audit', {
        action: 'sign-in',
        limit: '1',
        before: audit.nextBefore ?? '0-0',
      });
      expect(older.total).toBeNull();
    });

    it('filters devices and users by care team', async () => {
      const admin = await createAdmin(built());
      const tag = unique('team');
      const carer = await signup(built());
      const inTeam = await device(built(), `${tag} in`);
      await device(built(), `${tag} out`);
      const res = await built().app.inject({
        method: 'POST',
        url: '/api/v1/admin/teams',
        headers: admin.auth,
        payload: {
          name: `${tag} Ward B`,
          deviceIds: [inTeam],
          members: [{ userId: carer.user._id, role: 'primary' }],
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      const team = res.json().data.team._id as string;

      const page = await get<FleetDevicePage>(built(), admin, 'devices', { q: tag, team });
      expect(page.devices.map((d) => d.deviceName)).toEqual([`${tag} in`]);
      expect(page.total).toBe(1);
      const members = await get<FleetUserPage>(built(), admin, 'users', { team });
      expect(members.users.map((u) => u.username)).toEqual([carer.user.username]);
      expect(members.total).toBe(1);
    });

    it('finds a device by part of its assigned user’s username', async () => {
      const admin = await createAdmin(built());
      const tag = unique('owner');
      const carer = await signup(built());
      await device(built(), `${tag} watch`, [carer.user._id]);
      await device(built(), `${tag} spare`);
      const part = carer.user.username.slice(1, -1);
      const page = await get<FleetDevicePage>(built(), admin, 'devices', { q: part });
      expect(page.devices.map((d) => d.deviceName)).toEqual([`${tag} watch`]);
      expect(page.devices[0]!.userNames).toEqual([carer.user.username]);
      expect(page.total).toBe(1);
    });
  },
);
