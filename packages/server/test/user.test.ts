import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createAdmin, dbTargets, signup, unique, useTestApp } from './helpers.ts';

describe.each(dbTargets())('account API on $name', (target) => {
  const built = useTestApp(target);
  const inject = (opts: InjectOptions) => built().app.inject(opts);

  describe('POST /api/v1/user/create', () => {
    it('creates a user, returns tokens and the public user without secrets', async () => {
      const username = unique('alice');
      const res = await inject({
        method: 'POST',
        url: '/api/v1/user/create',
        payload: {
          user: {
            fullName: 'Alice',
            username,
            email: `${username}@Example.com`,
            password: 'Secret123',
            cnfPassword: 'Secret123',
          },
        },
      });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body.success).toBe(true);
      expect(body.data.user).toMatchObject({ username, role: 'user', email: `${username}@example.com` });
      expect(body.data.accessToken).toEqual(expect.any(String));
      expect(body.data.refreshToken).toEqual(expect.any(String));
      expect(res.body).not.toMatch(/password_?hash|scrypt\$/i);
    });

    it('answers 400 with every field issue', async () => {
      const res = await inject({
        method: 'POST',
        url: '/api/v1/user/create',
        payload: { user: { fullName: '', username: '', email: 'nope', password: 'weak', cnfPassword: 'x' } },
      });
      expect(res.statusCode).toBe(400);
      const issues = res
        .json()
        .issues.map((i: { path: string; message: string }) => `${i.path}: ${i.message}`);
      expect(issues).toEqual(
        expect.arrayContaining([
          'user.fullName: Full Name is required',
          'user.username: Username is required',
          'user.email: Enter a valid email address',
          'user.password: Password must contain at least 8 characters, a number, uppercase & lowercase letter',
          'user.cnfPassword: Passwords do not match',
        ]),
      );
    });

    it('answers 409 naming the field for a duplicate username or email, case-insensitively', async () => {
      const first = await signup(built());
      const sameName = await inject({
        method: 'POST',
        url: '/api/v1/user/create',
        payload: {
          user: {
            fullName: 'X',
            username: first.user.username.toUpperCase(),
            email: `${unique()}@example.com`,
            password: 'Secret123',
            cnfPassword: 'Secret123',
          },
        },
      });
      expect(sameName.statusCode).toBe(409);
      expect(sameName.json().message).toBe('Username is already taken');
      const sameEmail = await inject({
        method: 'POST',
        url: '/api/v1/user/create',
        payload: {
          user: {
            fullName: 'X',
            username: unique(),
            email: first.user.email.toUpperCase(),
            password: 'Secret123',
            cnfPassword: 'Secret123',
          },
        },
      });
      expect(sameEmail.statusCode).toBe(409);
      expect(sameEmail.json().message).toBe('Email is already registered');
    });
  });

  describe('POST /api/v1/user/login', () => {
    it('signs in with the username or the email', async () => {
      const u = await signup(built());
      for (const id of [u.user.username, u.user.email.toUpperCase()]) {
        const res = await inject({
          method: 'POST',
          url: '/api/v1/user/login',
          payload: { user: { username: id, password: u.password } },
        });
        expect(res.statusCode).toBe(200);
        expect(res.json().data.user._id).toBe(u.user._id);
      }
    });

    it('gives one generic 401 for an unknown user and a wrong password', async () => {
      const u = await signup(built());
      const wrong = await inject({
        method: 'POST',
        url: '/api/v1/user/login',
        payload: { user: { username: u.user.username, password: 'Wrong1234' } },
      });
      const unknown = await inject({
        method: 'POST',
        url: '/api/v1/user/login',
        payload: { user: { username: unique('ghost'), password: 'Wrong1234' } },
      });
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.json().message).toBe(unknown.json().message);
    });

    it('answers 400 with the spec messages for empty fields', async () => {
      const res = await inject({
        method: 'POST',
        url: '/api/v1/user/login',
        payload: { user: { username: '', password: '' } },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().issues).toEqual([
        { path: 'user.username', message: 'Username is required' },
        { path: 'user.password', message: 'Password is required' },
      ]);
    });

    it('locks an account for a while after 10 failures (429 with Retry-After), even for the right password', async () => {
      const u = await signup(built());
      for (let i = 0; i < 10; i++) {
        const res = await inject({
          method: 'POST',
          url: '/api/v1/user/login',
          payload: { user: { username: u.user.username, password: `Wrong${i}xx` } },
        });
        expect(res.statusCode).toBe(401);
      }
      const locked = await inject({
        method: 'POST',
        url: '/api/v1/user/login',
        payload: { user: { username: u.user.username, password: u.password } },
      });
      expect(locked.statusCode).toBe(429);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('counts failures per account: guesses under the username lock the e-mail too, and the other way round', async () => {
      for (const [guessAs, thenAs] of [
        ['username', 'email'],
        ['email', 'username'],
      ] as const) {
        const u = await signup(built());
        const name = { username: u.user.username, email: u.user.email };
        for (let i = 0; i < 10; i++) {
          const res = await inject({
            method: 'POST',
            url: '/api/v1/user/login',
            payload: { user: { username: name[guessAs], password: `Wrong${i}xx` } },
          });
          expect(res.statusCode).toBe(401);
        }
        const other = await inject({
          method: 'POST',
          url: '/api/v1/user/login',
          payload: { user: { username: name[thenAs].toUpperCase(), password: u.password } },
        });
        expect(other.statusCode).toBe(429);
      }
    });
  });

  describe('authenticated account routes', () => {
    it('401 without a token or with a forged one', async () => {
      expect((await inject({ method: 'GET', url: '/api/v1/user/profile' })).statusCode).toBe(401);
      const forged = await inject({
        method: 'GET',
        url: '/api/v1/user/profile',
        headers: { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.bad' },
      });
      expect(forged.statusCode).toBe(401);
      expect(
        (await inject({ method: 'POST', url: '/api/v1/user/update-name', payload: {} })).statusCode,
      ).toBe(401);
    });

    it('profile, update-name', async () => {
      const u = await signup(built());
      const profile = await inject({ method: 'GET', url: '/api/v1/user/profile', headers: u.auth });
      expect(profile.json().data.user).toMatchObject({ _id: u.user._id, fullName: 'Test User' });
      const bad = await inject({
        method: 'POST',
        url: '/api/v1/user/update-name',
        headers: u.auth,
        payload: { fullName: '  ' },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().issues[0]).toEqual({ path: 'fullName', message: 'Full Name is required' });
      const ok = await inject({
        method: 'POST',
        url: '/api/v1/user/update-name',
        headers: u.auth,
        payload: { fullName: 'Renamed Person' },
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().data.user.fullName).toBe('Renamed Person');
    });

    it('change-password checks the current password, then the new one works', async () => {
      const u = await signup(built());
      const wrong = await inject({
        method: 'POST',
        url: '/api/v1/user/change-password',
        headers: u.auth,
        payload: { oldPassword: 'Nope12345', newPassword: 'Brand9New' },
      });
      expect(wrong.statusCode).toBe(400);
      const ok = await inject({
        method: 'POST',
        url: '/api/v1/user/change-password',
        headers: u.auth,
        payload: { oldPassword: u.password, newPassword: 'Brand9New' },
      });
      expect(ok.statusCode).toBe(200);
      const login = await inject({
        method: 'POST',
        url: '/api/v1/user/login',
        payload: { user: { username: u.user.username, password: 'Brand9New' } },
      });
      expect(login.statusCode).toBe(200);
    });

    it('change-password counts wrong current passwords with failed sign-ins: ten lock the account (429 with Retry-After)', async () => {
      const u = await signup(built());
      const change = (oldPassword: string) =>
        inject({
          method: 'POST',
          url: '/api/v1/user/change-password',
          headers: u.auth,
          payload: { oldPassword, newPassword: 'Brand9New' },
        });
      for (let i = 0; i < 10; i++) expect((await change(`Guess${i}xxx`)).statusCode).toBe(400);
      const locked = await change(u.password);
      expect(locked.statusCode).toBe(429);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      const signIn = await inject({
        method: 'POST',
        url: '/api/v1/user/login',
        payload: { user: { username: u.user.username, password: u.password } },
      });
      expect(signIn.statusCode).toBe(429);
      const audit = await inject({
        method: 'GET',
        url: `/api/v1/admin/audit?actor=${u.user.username}&action=password-change&limit=50`,
        headers: (await createAdmin(built())).auth,
      });
      expect(audit.json().data.entries.map((e: { outcome: string }) => e.outcome)).toEqual(
        Array(11).fill('failure'),
      );
    });

    it('change-password ends every other session; the caller keeps its login through one refresh', async () => {
      const u = await signup(built());
      const other = (
        await inject({
          method: 'POST',
          url: '/api/v1/user/login',
          payload: { user: { username: u.user.username, password: u.password } },
        })
      ).json().data;
      const changed = await inject({
        method: 'POST',
        url: '/api/v1/user/change-password',
        headers: u.auth,
        payload: { oldPassword: u.password, newPassword: 'Brand9New', refreshToken: u.refreshToken },
      });
      expect(changed.statusCode).toBe(200);
      const profileWith = (token: string) =>
        inject({ method: 'GET', url: '/api/v1/user/profile', headers: { authorization: `Bearer ${token}` } });
      const refreshWith = (refreshToken: string) =>
        inject({ method: 'POST', url: '/api/v1/user/refresh', payload: { refreshToken } });
      expect((await profileWith(other.accessToken)).statusCode).toBe(401);
      expect((await refreshWith(other.refreshToken)).statusCode).toBe(401);
      expect((await profileWith(u.accessToken)).statusCode).toBe(401);
      expect((await profileWith(changed.json().data.accessToken)).statusCode).toBe(200);
      const renewed = await refreshWith(u.refreshToken);
      expect(renewed.statusCode).toBe(200);
      expect((await profileWith(renewed.json().data.accessToken)).statusCode).toBe(200);
    });

    it('save-fcm-token stores the subscription (object or JSON string) once per browser', async () => {
      const u = await signup(built());
      const sub = {
        endpoint: `https://push.example.test/${unique()}`,
        keys: { p256dh: 'BKey', auth: 'authsecret' },
      };
      for (const fcmToken of [sub, JSON.stringify(sub)]) {
        const res = await inject({
          method: 'POST',
          url: '/api/v1/user/save-fcm-token',
          headers: u.auth,
          payload: { fcmToken },
        });
        expect(res.statusCode).toBe(200);
      }
      const profile = await inject({ method: 'GET', url: '/api/v1/user/profile', headers: u.auth });
      expect(profile.json().data.user.fcmTokens).toHaveLength(1);
      const bad = await inject({
        method: 'POST',
        url: '/api/v1/user/save-fcm-token',
        headers: u.auth,
        payload: { fcmToken: 'not a subscription' },
      });
      expect(bad.statusCode).toBe(400);
    });

    it('an admin token is an admin: role comes from the database', async () => {
      const admin = await createAdmin(built());
      const profile = await inject({ method: 'GET', url: '/api/v1/user/profile', headers: admin.auth });
      expect(profile.json().data.user.role).toBe('admin');
    });
  });

  describe('platform', () => {
    it('healthz, readyz, JSON 404 for unknown API paths, 413 for huge bodies, 400 for malformed JSON', async () => {
      expect((await inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      expect((await inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      const missing = await inject({ method: 'GET', url: '/api/v1/nope' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
      const huge = await inject({
        method: 'POST',
        url: '/api/v1/user/login',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ user: { username: 'x'.repeat(2 * 1024 * 1024), password: 'y' } }),
      });
      expect(huge.statusCode).toBe(413);
      const malformed = await inject({
        method: 'POST',
        url: '/api/v1/user/login',
        headers: { 'content-type': 'application/json' },
        payload: '{"user":',
      });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().success).toBe(false);
    });

    it('sends security headers', async () => {
      const res = await inject({ method: 'GET', url: '/healthz' });
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    });
  });
});
