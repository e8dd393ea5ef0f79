import { ACCESS_TOKEN_TTL_S } from '@vitalwatch/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { refreshTokens } from '../src/db/schema.ts';
import { dbTargets, signup, useTestApp } from './helpers.ts';

/** Refresh-token rotation and logout: which tokens a login keeps, and when they stop. */
describe.each(dbTargets())('account tokens on $name', (target) => {
  const built = useTestApp(target);
  const inject = (opts: InjectOptions) => built().app.inject(opts);

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

    it('an access token already accepted is refused once it expires (its checked signature is not kept past exp)', async () => {
      const u = await signup(built());
      const profile = () => inject({ method: 'GET', url: '/api/v1/user/profile', headers: u.auth });
      expect((await profile()).statusCode).toBe(200);
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + ACCESS_TOKEN_TTL_S * 1000 + 1000 });
      try {
        const expired = await profile();
        expect(expired.statusCode).toBe(401);
        expect(expired.json().message).toBe('Invalid or expired token');
      } finally {
        vi.useRealTimers();
      }
    });
  });
});
