import { and, eq, isNull, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { refreshTokens } from '../src/db/schema.ts';
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

  describe('tokens', () => {
    const refresh = (refreshToken: string) =>
      inject({ method: 'POST', url: '/api/v1/user/refresh', payload: { refreshToken } });
    /** As if every rotation so far happened a minute ago, past the retry grace. */
    const ageRotations = () =>
      built().ctx.db.execute(sql`update refresh_tokens set rotated_at = rotated_at - interval '1 minute'`);

    it('refresh rotates: the new pair works, the old refresh token does not once its grace is over', async () => {
      const u = await signup(built());
      const first = await refresh(u.refreshToken);
      expect(first.statusCode).toBe(200);
      const next = first.json().data;
      expect(next.refreshToken).not.toBe(u.refreshToken);
      const profile = await inject({
        method: 'GET',
        url: '/api/v1/user/profile',
        headers: { authorization: `Bearer ${next.accessToken}` },
      });
      expect(profile.statusCode).toBe(200);
      await ageRotations();
      expect((await refresh(u.refreshToken)).statusCode).toBe(401);
    });

    it('the same token again within 30 s of its rotation (a lost answer, two tabs) gets the same successor back', async () => {
      const u = await signup(built());
      const first = (await refresh(u.refreshToken)).json().data;
      const retry = await refresh(u.refreshToken);
      expect(retry.statusCode).toBe(200);
      const second = retry.json().data;
      // One login stays one line: the retry is handed the successor the first call got.
      expect(second.refreshToken).toBe(first.refreshToken);
      expect(second.accessToken).toEqual(expect.any(String));
      // Both callers go on.
      expect((await refresh(first.refreshToken)).statusCode).toBe(200);
      expect((await refresh(second.refreshToken)).statusCode).toBe(200);
    });

    it('ten parallel refreshes with one token hand back one successor: the login does not fork', async () => {
      const u = await signup(built());
      const results = await Promise.all(Array.from({ length: 10 }, () => refresh(u.refreshToken)));
      expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
      const successors = new Set(results.map((r) => r.json().data.refreshToken as string));
      expect(successors.size).toBe(1);
      const [successor] = [...successors] as [string];
      expect(successor).not.toBe(u.refreshToken);
      const live = await built()
        .ctx.db.select({ id: refreshTokens.id })
        .from(refreshTokens)
        .where(and(eq(refreshTokens.userId, u.user._id), isNull(refreshTokens.revokedAt)));
      expect(live).toHaveLength(1);
      // Every caller's access token works, and the one successor carries the login on.
      for (const r of results) {
        const profile = await inject({
          method: 'GET',
          url: '/api/v1/user/profile',
          headers: { authorization: `Bearer ${r.json().data.accessToken}` },
        });
        expect(profile.statusCode).toBe(200);
      }
      const next = await refresh(successor);
      expect(next.statusCode).toBe(200);
      // Past the grace the first token is a replay again, and it ends the whole login.
      await ageRotations();
      expect((await refresh(u.refreshToken)).statusCode).toBe(401);
      expect((await refresh(next.json().data.refreshToken)).statusCode).toBe(401);
    });

    it('replaying a used refresh token after its grace ends the whole login, its access tokens at once', async () => {
      const u = await signup(built());
      const other = await inject({
        method: 'POST',
        url: '/api/v1/user/login',
        payload: { user: { username: u.user.username, password: u.password } },
      });
      const rotated = (await refresh(u.refreshToken)).json().data;
      const profile = (token: string) =>
        inject({ method: 'GET', url: '/api/v1/user/profile', headers: { authorization: `Bearer ${token}` } });
      expect((await profile(rotated.accessToken)).statusCode).toBe(200);
      await ageRotations();
      expect((await refresh(u.refreshToken)).statusCode).toBe(401);
      expect((await refresh(rotated.refreshToken)).statusCode).toBe(401);
      for (const token of [u.accessToken, rotated.accessToken])
        expect((await profile(token)).statusCode).toBe(401);
      expect((await profile(other.json().data.accessToken)).statusCode).toBe(200);
    });

    it('a login ended by logout is not revived by a retry within the grace', async () => {
      const u = await signup(built());
      const rotated = (await refresh(u.refreshToken)).json().data;
      const out = await inject({
        method: 'POST',
        url: '/api/v1/user/logout',
        headers: { authorization: `Bearer ${rotated.accessToken}` },
        payload: { refreshToken: rotated.refreshToken },
      });
      expect(out.statusCode).toBe(200);
      expect((await refresh(u.refreshToken)).statusCode).toBe(401);
    });

    it('logout revokes the refresh token', async () => {
      const u = await signup(built());
      const out = await inject({
        method: 'POST',
        url: '/api/v1/user/logout',
        headers: u.auth,
        payload: { refreshToken: u.refreshToken },
      });
      expect(out.statusCode).toBe(200);
      const res = await inject({
        method: 'POST',
        url: '/api/v1/user/refresh',
        payload: { refreshToken: u.refreshToken },
      });
      expect(res.statusCode).toBe(401);
    });

    it('logout refuses the access tokens of that login at once; another login of the user goes on', async () => {
      const u = await signup(built());
      const other = await inject({
        method: 'POST',
        url: '/api/v1/user/login',
        payload: { user: { username: u.user.username, password: u.password } },
      });
      const otherAuth = { authorization: `Bearer ${other.json().data.accessToken}` };
      // Two access tokens of the same login: the first one, and the one a refresh gave.
      const rotated = (await refresh(u.refreshToken)).json().data;
      const rotatedAuth = { authorization: `Bearer ${rotated.accessToken}` };
      const profile = (headers: { authorization: string }) =>
        inject({ method: 'GET', url: '/api/v1/user/profile', headers });
      expect((await profile(rotatedAuth)).statusCode).toBe(200);

      const out = await inject({
        method: 'POST',
        url: '/api/v1/user/logout',
        headers: rotatedAuth,
        payload: { refreshToken: rotated.refreshToken },
      });
      expect(out.statusCode).toBe(200);
      for (const headers of [rotatedAuth, u.auth]) {
        const res = await profile(headers);
        expect(res.statusCode).toBe(401);
        expect(res.json().message).toBe('Invalid or expired token');
      }
      const again = await inject({ method: 'POST', url: '/api/v1/user/logout', headers: rotatedAuth });
      expect(again.statusCode).toBe(401);
      expect((await profile(otherAuth)).statusCode).toBe(200);
    });

    it('logout without a body refuses the calling access token too', async () => {
      const u = await signup(built());
      const out = await inject({ method: 'POST', url: '/api/v1/user/logout', headers: u.auth });
      expect(out.statusCode).toBe(200);
      const res = await inject({ method: 'GET', url: '/api/v1/user/profile', headers: u.auth });
      expect(res.statusCode).toBe(401);
    });

    it('logout without a body ends every login of the user: refresh tokens and access tokens at once', async () => {
      const u = await signup(built());
      const other = await inject({
        method: 'POST',
        url: '/api/v1/user/login',
        payload: { user: { username: u.user.username, password: u.password } },
      });
      const otherAuth = { authorization: `Bearer ${other.json().data.accessToken}` };
      expect(
        (await inject({ method: 'GET', url: '/api/v1/user/profile', headers: otherAuth })).statusCode,
      ).toBe(200);
      const out = await inject({ method: 'POST', url: '/api/v1/user/logout', headers: u.auth });
      expect(out.statusCode).toBe(200);
      expect(
        (await inject({ method: 'GET', url: '/api/v1/user/profile', headers: otherAuth })).statusCode,
      ).toBe(401);
      const res = await inject({
        method: 'POST',
        url: '/api/v1/user/refresh',
        payload: { refreshToken: u.refreshToken },
      });
      expect(res.statusCode).toBe(401);
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
