import { beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../src/errors.ts';
import { userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, type TestUser, unique, useTestApp } from './helpers.ts';

/** Inputs a schema lets through but PostgreSQL cannot take: each must be a 400, never a 500. */
describe.each(dbTargets())('odd input on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  let admin: TestUser;
  let user: TestUser;
  let deviceId: string;
  let apiAuthCode: string;
  let activationCode: string;

  beforeAll(async () => {
    admin = await createAdmin(built());
    const made = await userWithDevice(built(), admin, 'Nul test watch');
    user = made.user;
    deviceId = made.device._id;
    apiAuthCode = made.device.apiAuthCode;
    activationCode = made.device.activationCode;
  });

  const post = (url: string, payload: object, who?: TestUser) =>
    built().app.inject({ method: 'POST', url, payload, headers: who?.auth ?? {} });

  describe('U+0000 in a string (PostgreSQL text cannot hold it)', () => {
    const name = unique('nul');
    const subscription = {
      endpoint: 'https://push.example/\u0000',
      keys: { p256dh: 'p\u0000', auth: 'a' },
    };
    it.each([
      [
        '/api/v1/user/create',
        () => ({
          user: {
            fullName: 'N',
            username: name,
            email: `${name}\u0000@example.com`,
            password: 'Passw0rd!',
            cnfPassword: 'Passw0rd!',
          },
        }),
        undefined,
      ],
      ['/api/v1/user/login', () => ({ user: { username: 'a\u0000b', password: 'Passw0rd!' } }), undefined],
      ['/api/v1/user/update-name', () => ({ fullName: 'Bad\u0000Name' }), () => user],
      ['/api/v1/user/save-fcm-token', () => ({ fcmToken: subscription }), () => user],
      ['/api/v1/push/unsubscribe', () => ({ endpoint: subscription.endpoint }), () => user],
      [
        '/api/v1/device/add-device',
        () => ({ data: { activationCode: `${activationCode}\u0000` } }),
        () => user,
      ],
      ['/api/v1/device/update-device', () => ({ data: { deviceId, newName: 'Bad\u0000Name' } }), () => user],
      ['/api/v1/admin/add-device', () => ({ deviceName: 'Bad\u0000Name' }), () => admin],
      [
        '/api/v1/admin/add-user',
        () => ({
          fullName: 'Bad\u0000Name',
          username: name,
          email: `${name}@example.com`,
          role: 'user',
          password: 'Passw0rd!',
        }),
        () => admin,
      ],
    ] as const)('%s answers 400', async (url, payload, who) => {
      const res = await post(url, payload(), who?.());
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    });

    it('names the field that holds it, in the words of its own schema where that refuses control characters', async () => {
      const name = await post('/api/v1/user/update-name', { fullName: 'Bad\u0000Name' }, user);
      expect(name.json().issues).toEqual([
        { path: 'fullName', message: 'Full Name must not contain control or text-direction characters' },
      ]);
      const endpoint = await post('/api/v1/push/unsubscribe', { endpoint: subscription.endpoint }, user);
      expect(endpoint.json().issues).toEqual([
        { path: 'endpoint', message: 'Text must not contain NUL (\\u0000) characters' },
      ]);
    });

    it('stores nothing of what it refused, and a written-out backslash-u0000 is ordinary text', async () => {
      const profile = await built().app.inject({
        method: 'GET',
        url: '/api/v1/user/profile',
        headers: user.auth,
      });
      expect(profile.json().data.user).toMatchObject({ fullName: 'Test User', fcmTokens: [] });
      const details = await post('/api/v1/device/device-details', { data: { deviceId } }, user);
      expect(details.json().data.device.deviceName).toBe('Nul test watch');
      const literal = await post('/api/v1/user/update-name', { fullName: 'Back\\u0000slash' }, user);
      expect(literal.statusCode).toBe(200);
      expect(literal.json().data.user.fullName).toBe('Back\\u0000slash');
    });

    it('a device password with a NUL (MQTT) is a wrong password, not a failed query', async () => {
      const refused = built().ctx.ingest.authenticateDevice(deviceId, `${apiAuthCode}\u0000`);
      await expect(refused).rejects.toBeInstanceOf(DomainError);
      await expect(refused).rejects.toMatchObject({ code: 'unknownApiKey' });
      await expect(built().ctx.ingest.authenticateApiKey('\u0000')).rejects.toMatchObject({
        code: 'unknownApiKey',
      });
    });
  });

  describe('dates PostgreSQL cannot store', () => {
    it.each([
      ['from', '0000-01-01T00:00:00Z'],
      ['to', '0001-01-01T00:00:00+14:00'],
      ['to', '9999-12-31T23:00:00-14:00'],
    ])('%s %s is a 400 on health and alert queries', async (field, value) => {
      for (const url of [`/api/v1/health/fetch/${deviceId}`, '/api/v1/alert/all']) {
        const res = await post(url, { [field]: value }, user);
        expect(res.statusCode).toBe(400);
        expect(res.json().issues).toEqual([
          { path: field, message: 'Date must be between the years 1 and 9999' },
        ]);
      }
    });

    it('the first and last storable instants are accepted', async () => {
      const range = { from: '0001-01-01T00:00:00Z', to: '9999-12-31T23:59:59.999Z' };
      expect((await post(`/api/v1/health/fetch/${deviceId}`, range, user)).statusCode).toBe(200);
      expect((await post('/api/v1/alert/all', range, user)).statusCode).toBe(200);
    });

    it('a cursor whose time is beyond year 9999 is an invalid cursor', async () => {
      const cursor = Buffer.from(`999999999999999.${deviceId}`).toString('base64url');
      const res = await post('/api/v1/alert/all', { cursor }, user);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Invalid cursor');
    });
  });
});
