import { CIRCLE_MESSAGES, DEVICE_MESSAGES } from '@vitalwatch/shared';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { countRows, createDevice, postAlert, postHealth, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, useTestApp } from './helpers.ts';

const ACTIVATION_CODE = /^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/;
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe.each(dbTargets())('device API on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  const inject = (opts: InjectOptions) => built().app.inject(opts);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });
  const asAdmin = (url: string, payload?: object) =>
    inject({ method: 'POST', url: `/api/v1/admin${url}`, headers: admin.auth, payload });
  const asUser = (user: TestUser, url: string, payload?: object) =>
    inject({ method: 'POST', url: `/api/v1/device${url}`, headers: user.auth, payload });

  describe('admin', () => {
    it('add-device creates a device with a readable activation code and a long API key', async () => {
      const user = await signup(built());
      const res = await asAdmin('/add-device', { deviceName: "Dad's watch", users: [user.user._id] });
      expect(res.statusCode).toBe(201);
      const { device } = res.json().data;
      expect(device).toMatchObject({ deviceName: "Dad's watch", isValid: true, users: [user.user._id] });
      expect(device.activationCode).toMatch(ACTIVATION_CODE);
      expect(device.apiAuthCode).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(device.lastUpdate).toBeNull();
    });

    it('add-device answers 400 with field issues, for unknown users and for admins as users', async () => {
      const empty = await asAdmin('/add-device', { deviceName: '  ' });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().issues).toContainEqual({ path: 'deviceName', message: 'Device name is required' });

      const unknown = await asAdmin('/add-device', { deviceName: 'x', users: [UNKNOWN_ID] });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().message).toBe(`Unknown user: ${UNKNOWN_ID}`);
      expect(unknown.json().issues[0].path).toBe('users.0');

      const notUuid = await asAdmin('/add-device', { deviceName: 'x', users: ['bob'] });
      expect(notUuid.statusCode).toBe(400);

      const anAdmin = await asAdmin('/add-device', { deviceName: 'x', users: [admin.user._id] });
      expect(anAdmin.statusCode).toBe(400);
      expect(anAdmin.json().message).toBe('Only users (not admins) can be assigned to a device');
    });

    it('answers 401 without a token and 403 to a user on every admin device route', async () => {
      const user = await signup(built());
      const device = await createDevice(built(), admin);
      const routes = [
        '/all-devices',
        '/add-device',
        `/update-device/${device._id}`,
        `/change-validity/${device._id}`,
        `/regenerate-code/${device._id}?codeType=apiAuthCode`,
        `/delete-device/${device._id}`,
      ];
      for (const url of routes) {
        const anonymous = await inject({ method: 'POST', url: `/api/v1/admin${url}`, payload: {} });
        expect(anonymous.statusCode, url).toBe(401);
        const asPlainUser = await inject({
          method: 'POST',
          url: `/api/v1/admin${url}`,
          headers: user.auth,
          payload: {},
        });
        expect(asPlainUser.statusCode, url).toBe(403);
      }
      expect(
        (await asAdmin('/all-devices')).json().data.devices.map((d: { _id: string }) => d._id),
      ).toContain(device._id);
    });

    it('all-devices lists devices with user ids and codes', async () => {
      const { user, device } = await userWithDevice(built(), admin);
      const res = await asAdmin('/all-devices');
      expect(res.statusCode).toBe(200);
      const listed = res.json().data.devices.find((d: { _id: string }) => d._id === device._id);
      expect(listed).toMatchObject({ users: [user.user._id], activationCode: device.activationCode });
    });

    it('update-device renames, changes validity and replaces the users', async () => {
      const { device } = await userWithDevice(built(), admin);
      const other = await signup(built());
      const res = await asAdmin(`/update-device/${device._id}`, {
        deviceName: 'Mum',
        isValid: false,
        users: [other.user._id],
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.device).toMatchObject({
        deviceName: 'Mum',
        isValid: false,
        users: [other.user._id],
      });

      // Omitted fields stay as they are: a rename never re-activates or unassigns.
      const renamed = await asAdmin(`/update-device/${device._id}`, { deviceName: 'Mum 2' });
      expect(renamed.json().data.device).toMatchObject({
        deviceName: 'Mum 2',
        isValid: false,
        users: [other.user._id],
      });

      expect((await asAdmin(`/update-device/${UNKNOWN_ID}`, { deviceName: 'x' })).statusCode).toBe(404);
      expect((await asAdmin('/update-device/nope', { deviceName: 'x' })).statusCode).toBe(404);
      const bad = await asAdmin(`/update-device/${device._id}`, { deviceName: '', users: 'x' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().issues.map((i: { path: string }) => i.path)).toEqual(
        expect.arrayContaining(['deviceName', 'users']),
      );
    });

    it('change-validity toggles; an inactive device cannot ingest at once (403)', async () => {
      const device = await createDevice(built(), admin);
      expect((await postHealth(built(), device.apiAuthCode, { spo2: 98 })).statusCode).toBe(202);
      const off = await asAdmin(`/change-validity/${device._id}`, { isValid: false });
      expect(off.statusCode).toBe(200);
      expect(off.json().data.device.isValid).toBe(false);
      expect((await postHealth(built(), device.apiAuthCode, { spo2: 98 })).statusCode).toBe(403);
      await asAdmin(`/change-validity/${device._id}`, { isValid: true });
      expect((await postHealth(built(), device.apiAuthCode, { spo2: 98 })).statusCode).toBe(202);

      expect((await asAdmin(`/change-validity/${device._id}`, {})).statusCode).toBe(400);
      expect((await asAdmin(`/change-validity/${UNKNOWN_ID}`, { isValid: true })).statusCode).toBe(404);
    });

    it('regenerate-code replaces only the chosen code; the old API key stops working at once', async () => {
      const device = await createDevice(built(), admin);
      const act = await asAdmin(`/regenerate-code/${device._id}?codeType=activationCode`);
      expect(act.statusCode).toBe(200);
      expect(act.json().data.device.activationCode).toMatch(ACTIVATION_CODE);
      expect(act.json().data.device.activationCode).not.toBe(device.activationCode);
      expect(act.json().data.device.apiAuthCode).toBe(device.apiAuthCode);

      const api = await asAdmin(`/regenerate-code/${device._id}?codeType=apiAuthCode`);
      const fresh = api.json().data.device;
      expect(fresh.apiAuthCode).not.toBe(device.apiAuthCode);
      expect(fresh.activationCode).toBe(act.json().data.device.activationCode);
      expect((await postHealth(built(), device.apiAuthCode, { spo2: 98 })).statusCode).toBe(401);
      expect((await postHealth(built(), fresh.apiAuthCode, { spo2: 98 })).statusCode).toBe(202);

      const bad = await asAdmin(`/regenerate-code/${device._id}?codeType=password`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('codeType must be activationCode or apiAuthCode');
      expect((await asAdmin(`/regenerate-code/${device._id}`)).statusCode).toBe(400);
      expect((await asAdmin(`/regenerate-code/${UNKNOWN_ID}?codeType=apiAuthCode`)).statusCode).toBe(404);
    });

    it('delete-device deletes the device with its readings and alerts', async () => {
      const { user, device } = await userWithDevice(built(), admin);
      await postHealth(built(), device.apiAuthCode, [{ spo2: 90 }, { spo2: 97 }]);
      await postAlert(built(), device.apiAuthCode, { alertType: 'FALL' });
      expect(await countRows(built(), 'health_records', device._id)).toBe(2);
      expect(await countRows(built(), 'alerts', device._id)).toBe(2);

      const res = await asAdmin(`/delete-device/${device._id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe('Device deleted successfully');
      expect(await countRows(built(), 'health_records', device._id)).toBe(0);
      expect(await countRows(built(), 'alerts', device._id)).toBe(0);
      expect(await countRows(built(), 'alert_episodes', device._id)).toBe(0);
      expect((await asUser(user, '/get-device')).json().data.devices).toEqual([]);
      expect((await postHealth(built(), device.apiAuthCode, { spo2: 98 })).statusCode).toBe(401);
      expect((await asAdmin(`/delete-device/${device._id}`)).statusCode).toBe(404);
    });
  });

  describe('user', () => {
    it('get-device lists only own devices, with users as a count and lastUpdate', async () => {
      const { user, device } = await userWithDevice(built(), admin);
      const second = await signup(built());
      await asAdmin(`/update-device/${device._id}`, {
        deviceName: device.deviceName,
        users: [user.user._id, second.user._id],
      });
      await createDevice(built(), admin, { users: [second.user._id] });
      const recordedAt = new Date(Date.now() - 60_000).toISOString();
      await postHealth(built(), device.apiAuthCode, { spo2: 97, recordedAt });

      const res = await asUser(user, '/get-device');
      expect(res.statusCode).toBe(200);
      expect(res.json().data.devices).toEqual([
        expect.objectContaining({ _id: device._id, users: 2, lastUpdate: recordedAt, isValid: true }),
      ]);
      expect(res.body).not.toContain(device.apiAuthCode);
      expect(res.body).not.toContain(device.activationCode);
      // The list, written by the database, says of each device what its details (written here) say.
      const details = await asUser(user, '/device-details', { data: { deviceId: device._id } });
      expect(res.json().data.devices).toEqual([details.json().data.device]);
    });

    it('answers 401 without a token and 403 to an admin on every user device route', async () => {
      for (const url of ['/get-device', '/add-device', '/update-device', '/device-details']) {
        expect((await inject({ method: 'POST', url: `/api/v1/device${url}`, payload: {} })).statusCode).toBe(
          401,
        );
        expect((await asUser(admin, url, {})).statusCode).toBe(403);
      }
    });

    it('add-device assigns the caller by activation code, typed loosely, and may rename', async () => {
      const user = await signup(built());
      const device = await createDevice(built(), admin);
      const loose = device.activationCode.toLowerCase().replace('-', ' ');
      const res = await asUser(user, '/add-device', {
        data: { activationCode: loose, deviceName: 'Grandpa' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.device).toMatchObject({ _id: device._id, deviceName: 'Grandpa', users: 1 });
      expect((await asUser(user, '/get-device')).json().data.devices).toHaveLength(1);

      const again = await asUser(user, '/add-device', { data: { activationCode: device.activationCode } });
      expect(again.statusCode).toBe(409);
      // After the first, the code asks an owner to confirm (care circle, issue 26).
      const other = await signup(built());
      const shared = await asUser(other, '/add-device', { data: { activationCode: device.activationCode } });
      expect(shared.statusCode).toBe(403);
      expect(shared.json().message).toBe(CIRCLE_MESSAGES.pendingConfirmation);
    });

    it('add-device: unknown code 404, inactive device 403, empty code 400', async () => {
      const user = await signup(built());
      const unknown = await asUser(user, '/add-device', { data: { activationCode: 'ZZZZ-ZZZZ' } });
      expect(unknown.statusCode).toBe(404);
      const inactive = await createDevice(built(), admin, { isValid: false });
      const res = await asUser(user, '/add-device', { data: { activationCode: inactive.activationCode } });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('This device is inactive');
      const empty = await asUser(user, '/add-device', { data: { activationCode: ' ' } });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().issues).toContainEqual({
        path: 'data.activationCode',
        message: 'Activation code is required',
      });
    });

    it('add-device: ten wrong activation codes lock the account out of it for a while (429 with Retry-After), audited', async () => {
      const guesser = await signup(built());
      const device = await createDevice(built(), admin);
      for (let i = 0; i < 10; i++) {
        const res = await asUser(guesser, '/add-device', { data: { activationCode: `ZZZZ-ZZ${i + 2}Z` } });
        expect(res.statusCode).toBe(404);
      }
      const locked = await asUser(guesser, '/add-device', {
        data: { activationCode: device.activationCode },
      });
      expect(locked.statusCode).toBe(429);
      expect(locked.json().message).toBe(DEVICE_MESSAGES.tooManyActivationCodes);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      // Another account at the same address is not locked by them.
      const other = await signup(built());
      expect(
        (await asUser(other, '/add-device', { data: { activationCode: device.activationCode } })).statusCode,
      ).toBe(200);
      const audit = await inject({
        method: 'GET',
        url: `/api/v1/admin/audit?actor=${guesser.user.username}&action=device-assign&outcome=failure&limit=50`,
        headers: admin.auth,
      });
      const reasons = audit.json().data.entries.map((e: { detail: { reason: string } }) => e.detail.reason);
      expect(reasons).toEqual([
        DEVICE_MESSAGES.tooManyActivationCodes,
        ...Array(10).fill(DEVICE_MESSAGES.unknownActivationCode),
      ]);
      expect(audit.body).not.toContain('ZZZZ');
    });

    it('add-device: wrong activation codes from one address lock it, whichever accounts typed them', async () => {
      const from = (user: TestUser, remoteAddress: string, activationCode: string) =>
        inject({
          method: 'POST',
          url: '/api/v1/device/add-device',
          headers: user.auth,
          payload: { data: { activationCode } },
          remoteAddress,
        });
      const device = await createDevice(built(), admin);
      for (let account = 0; account < 3; account++) {
        const guesser = await signup(built());
        for (let i = 0; i < 10; i++)
          expect((await from(guesser, '203.0.113.7', `YYYY-YY${i + 2}Y`)).statusCode).toBe(404);
      }
      const fresh = await signup(built());
      const blocked = await from(fresh, '203.0.113.7', device.activationCode);
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect((await from(fresh, '198.51.100.9', device.activationCode)).statusCode).toBe(200);
    });

    it('update-device renames own devices only', async () => {
      const { user, device } = await userWithDevice(built(), admin);
      const res = await asUser(user, '/update-device', {
        data: { deviceId: device._id, newName: 'Kitchen' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.device).toMatchObject({ _id: device._id, deviceName: 'Kitchen' });

      const stranger = await signup(built());
      const theirs = await asUser(stranger, '/update-device', {
        data: { deviceId: device._id, newName: 'Mine' },
      });
      expect(theirs.statusCode).toBe(404);
      const notUuid = await asUser(user, '/update-device', { data: { deviceId: 'abc', newName: 'x' } });
      expect(notUuid.statusCode).toBe(404);
      const bad = await asUser(user, '/update-device', { data: { deviceId: device._id, newName: '' } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().issues).toContainEqual({ path: 'data.newName', message: 'Device name is required' });
    });

    it('device-details shows own devices only', async () => {
      const { user, device } = await userWithDevice(built(), admin);
      const res = await asUser(user, '/device-details', { data: { deviceId: device._id } });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.device).toMatchObject({ _id: device._id, users: 1 });
      const stranger = await signup(built());
      expect((await asUser(stranger, '/device-details', { data: { deviceId: device._id } })).statusCode).toBe(
        404,
      );
      expect((await asUser(user, '/device-details', { data: {} })).statusCode).toBe(400);
    });
  });
});
