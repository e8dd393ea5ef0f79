import { type AuditEntry, type AuditPage, DEFAULT_ALARM_SETTINGS } from '@vitalwatch/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDevice, ownedDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, useTestApp } from './helpers.ts';

describe.each(dbTargets())(
  'audit log: what carers and admins change, and what admins are refused, on $name',
  (target) => {
    const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
    let admin: TestUser;
    beforeAll(async () => {
      admin = await createAdmin(built());
    });

    const post = (url: string, who: TestUser, payload?: object) =>
      built().app.inject({ method: 'POST', url, headers: who.auth, ...(payload ? { payload } : {}) });
    const entries = async (query: string): Promise<AuditEntry[]> => {
      const res = await built().app.inject({
        method: 'GET',
        url: `/api/v1/admin/audit?limit=200&${query}`,
        headers: admin.auth,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ data: AuditPage }>().data.entries;
    };
    const facts = (list: AuditEntry[]) => list.map((e) => [e.action, e.outcome, e.actorId, e.detail]);

    it('records an admin taking a device from a user as an unassignment, beside assignments and a rename', async () => {
      const [kept, removed, added] = [await signup(built()), await signup(built()), await signup(built())];
      const device = await createDevice(built(), admin, { users: [kept.user._id, removed.user._id] });
      const res = await post(`/api/v1/admin/update-device/${device._id}`, admin, {
        deviceName: 'Renamed watch',
        users: [kept.user._id, added.user._id],
        backupUsers: [added.user._id],
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(facts((await entries(`targetId=${device._id}`)).slice(0, 4))).toEqual([
        ['device-backup-contacts', 'success', admin.user._id, { backupUsers: added.user._id }],
        ['device-unassign', 'success', admin.user._id, { users: removed.user._id }],
        ['device-assign', 'success', admin.user._id, { users: added.user._id }],
        ['device-rename', 'success', admin.user._id, { from: device.deviceName, to: 'Renamed watch' }],
      ]);
      // The same list again changes no assignment: nothing is recorded as one.
      await post(`/api/v1/admin/update-device/${device._id}`, admin, {
        deviceName: 'Renamed watch',
        users: [kept.user._id, added.user._id],
      });
      expect((await entries(`targetId=${device._id}`)).map((e) => e.action).slice(0, 4)).toEqual([
        'device-backup-contacts',
        'device-unassign',
        'device-assign',
        'device-rename',
      ]);
    });

    it("records a device's owner renaming it and changing its alarm settings, with the values before and after", async () => {
      const user = await signup(built());
      const device = await ownedDevice(built(), admin, user, 'Mum watch');
      expect(
        (
          await post('/api/v1/device/update-device', user, {
            data: { deviceId: device._id, newName: 'Mum kitchen' },
          })
        ).statusCode,
      ).toBe(200);
      const settings = structuredClone(DEFAULT_ALARM_SETTINGS);
      settings.conditions.LOW_SPO2.limit = 93;
      settings.escalation.repeatEveryMinutes = 5;
      const res = await post(`/api/v1/device/update-alarm-settings/${device._id}`, user, { settings });
      expect(res.statusCode, res.body).toBe(200);
      // Saved again unchanged: nothing to record.
      await post(`/api/v1/device/update-alarm-settings/${device._id}`, user, { settings });
      expect(facts((await entries(`targetId=${device._id}`)).slice(0, 2))).toEqual([
        [
          'alarm-settings-change',
          'success',
          user.user._id,
          { 'conditions.LOW_SPO2.limit': '95 → 93', 'escalation.repeatEveryMinutes': '2 → 5' },
        ],
        ['device-rename', 'success', user.user._id, { from: 'Mum watch', to: 'Mum kitchen' }],
      ]);
    });

    it('records a user refused an admin route, and the last admin refused deletion or demotion', async () => {
      const user = await signup(built());
      expect(
        (await post('/api/v1/admin/delete-user/00000000-0000-4000-8000-000000000000', user)).statusCode,
      ).toBe(403);
      const audit = await built().app.inject({
        method: 'GET',
        url: '/api/v1/admin/audit',
        headers: user.auth,
      });
      expect(audit.statusCode).toBe(403);
      expect(facts(await entries(`actor=${user.user.username}&action=access-denied`))).toEqual([
        ['access-denied', 'failure', user.user._id, { route: 'GET /api/v1/admin/audit', role: 'user' }],
        [
          'access-denied',
          'failure',
          user.user._id,
          { route: 'POST /api/v1/admin/delete-user/:id', role: 'user' },
        ],
      ]);

      // Every other admin gone, this one is the last: demoting them is refused, and so is deleting oneself.
      for (const other of await built().ctx.admin.listUsers(false)) {
        if (other.role === 'admin' && other._id !== admin.user._id) {
          expect((await post(`/api/v1/admin/delete-user/${other._id}`, admin)).statusCode).toBe(200);
        }
      }
      const demoted = await post(`/api/v1/admin/edit-user/${admin.user._id}`, admin, {
        fullName: admin.user.fullName,
        username: admin.user.username,
        email: admin.user.email,
        role: 'user',
      });
      expect(demoted.statusCode).toBe(409);
      expect((await post(`/api/v1/admin/delete-user/${admin.user._id}`, admin)).statusCode).toBe(409);
      expect(facts(await entries(`targetId=${admin.user._id}&outcome=failure`))).toEqual([
        ['user-delete', 'failure', admin.user._id, { reason: 'You cannot delete your own account' }],
        [
          'role-change',
          'failure',
          admin.user._id,
          {
            username: admin.user.username,
            to: 'user',
            reason: 'The last admin cannot be removed or demoted',
          },
        ],
      ]);
    });
  },
);
