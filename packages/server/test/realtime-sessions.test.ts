import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type BuiltApp, buildApp } from '../src/app.ts';
import { adminPost } from './admin-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, testConfig, useTestApp } from './helpers.ts';
import { disconnected, serviceUrl, useSockets } from './realtime-helpers.ts';

/** A second login of the same user: another session, with its own tokens. */
async function loginAgain(
  built: BuiltApp,
  user: TestUser,
): Promise<{ accessToken: string; refreshToken: string }> {
  const res = await built.app.inject({
    method: 'POST',
    url: '/api/v1/user/login',
    payload: { user: { username: user.user.username, password: user.password } },
  });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

describe.each(dbTargets())('sockets close as soon as sessions end, on $name', (target) => {
  // The app starts with a fake setInterval, so its periodic revalidation never runs in these
  // tests: only the sessions-ended notice can close a socket here.
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['setInterval'] });
  });
  const built = useTestApp(target);
  beforeAll(() => {
    vi.useRealTimers();
  });
  const openSocket = useSockets(built);
  const connect = (token: string) => openSocket({ token });

  it('admin reset-password closes every socket of that user; other users’ stay', async () => {
    const admin = await createAdmin(built());
    const alice = await signup(built());
    const bob = await signup(built());
    const aliceSockets = [await connect(alice.accessToken), await connect(alice.accessToken)];
    const bobSocket = await connect(bob.accessToken);
    const gone = aliceSockets.map((s) => disconnected(s));

    const reset = await adminPost(built(), `reset-password/${alice.user._id}`, admin.auth, {
      newPassword: 'N3wPassword!',
    });
    expect(reset.statusCode).toBe(200);
    expect(await Promise.all(gone)).toEqual(['io server disconnect', 'io server disconnect']);
    expect(await built().realtime.revalidate()).toBe(0);
    expect(bobSocket.connected).toBe(true);
    await expect(connect(alice.accessToken)).rejects.toThrow('Invalid or expired token');
  });

  it('admin delete-user closes that user’s socket; other users’ stay', async () => {
    const admin = await createAdmin(built());
    const alice = await signup(built());
    const bob = await signup(built());
    const aliceSocket = await connect(alice.accessToken);
    const bobSocket = await connect(bob.accessToken);
    const gone = disconnected(aliceSocket);

    expect((await adminPost(built(), `delete-user/${alice.user._id}`, admin.auth)).statusCode).toBe(200);
    expect(await gone).toBe('io server disconnect');
    expect(await built().realtime.revalidate()).toBe(0);
    expect(bobSocket.connected).toBe(true);
  });

  it('change-password closes the sockets of older tokens; the caller’s socket with its new token stays', async () => {
    const alice = await signup(built());
    const otherSession = await loginAgain(built(), alice);
    const callerSocket = await connect(alice.accessToken);
    const otherSocket = await connect(otherSession.accessToken);
    const gone = [disconnected(callerSocket), disconnected(otherSocket)];

    const changed = await built().app.inject({
      method: 'POST',
      url: '/api/v1/user/change-password',
      headers: alice.auth,
      payload: { oldPassword: alice.password, newPassword: 'Brand9New', refreshToken: alice.refreshToken },
    });
    expect(changed.statusCode).toBe(200);
    // The caller's access token was issued before the change too: it is refused like the other
    // session's, and the caller goes on with the one the response carries (as the web client does).
    expect(await Promise.all(gone)).toEqual(['io server disconnect', 'io server disconnect']);
    await expect(connect(otherSession.accessToken)).rejects.toThrow('Invalid or expired token');
    const callerAgain = await connect(changed.json().data.accessToken);
    // A later notice for the same user re-checks that socket, and it belongs to a live session.
    const dropped = disconnected(callerAgain, 2000).then(
      () => 'dropped',
      () => 'stayed',
    );
    built().ctx.events.emit('sessionsEnded', alice.user._id);
    expect(await dropped).toBe('stayed');
    expect(callerAgain.connected).toBe(true);
  });

  it('logout closes the sockets of that login and refuses its token at the handshake; another login’s socket stays', async () => {
    const alice = await signup(built());
    const otherSession = await loginAgain(built(), alice);
    const sockets = [await connect(alice.accessToken), await connect(alice.accessToken)];
    const otherSocket = await connect(otherSession.accessToken);
    const gone = sockets.map((s) => disconnected(s));

    const out = await built().app.inject({
      method: 'POST',
      url: '/api/v1/user/logout',
      headers: alice.auth,
      payload: { refreshToken: alice.refreshToken },
    });
    expect(out.statusCode).toBe(200);
    expect(await Promise.all(gone)).toEqual(['io server disconnect', 'io server disconnect']);
    await expect(connect(alice.accessToken)).rejects.toThrow('Invalid or expired token');
    expect(await built().realtime.revalidate()).toBe(0);
    expect(otherSocket.connected).toBe(true);
  });
});

describe.each(dbTargets())('a replayed refresh token ends its login’s sockets, on $name', (target) => {
  const built = useTestApp(target, { socketRecheckMs: 3_600_000 });
  const openSocket = useSockets(built);

  it('closes the sockets of that login and refuses its token at the handshake; another login’s socket stays', async () => {
    const alice = await signup(built());
    const otherSession = await loginAgain(built(), alice);
    const refresh = (refreshToken: string) =>
      built().app.inject({ method: 'POST', url: '/api/v1/user/refresh', payload: { refreshToken } });
    const rotated = (await refresh(alice.refreshToken)).json().data;
    const sockets = [
      await openSocket({ token: alice.accessToken }),
      await openSocket({ token: rotated.accessToken }),
    ];
    const otherSocket = await openSocket({ token: otherSession.accessToken });
    const gone = sockets.map((s) => disconnected(s));

    // Past the retry grace, the used token again is a replay.
    await built().ctx.db.execute(
      sql`update refresh_tokens set rotated_at = rotated_at - interval '1 minute' where user_id = ${alice.user._id}`,
    );
    expect((await refresh(alice.refreshToken)).statusCode).toBe(401);
    expect(await Promise.all(gone)).toEqual(['io server disconnect', 'io server disconnect']);
    await expect(openSocket({ token: rotated.accessToken })).rejects.toThrow('Invalid or expired token');
    expect(otherSocket.connected).toBe(true);
  });
});

/**
 * Two server processes' worth of app sharing one database (and Redis, when TEST_REDIS_URL is
 * set): a logout on A holds on B at once, with no cache on B to wait out.
 */
describe.each(dbTargets())('a logout on one server holds on another, on $name', (target) => {
  const redisUrl = serviceUrl('TEST_REDIS_URL');
  // Periodic revalidation an hour away: a socket closed here was closed by the logout's notice.
  const a = useTestApp(target, { redisUrl, socketRecheckMs: 3_600_000 });
  let b: BuiltApp | undefined;
  beforeAll(async () => {
    const { config, database } = a().ctx;
    // B closes nothing of A's: the database is A's to close.
    b = await buildApp(testConfig({ jwtSecret: config.jwtSecret, redisUrl, socketRecheckMs: 3_600_000 }), {
      database: { ...database, close: async () => {} },
    });
    await b.app.ready();
  });
  afterAll(async () => {
    await b?.app.close();
  });
  const onB = () => {
    if (!b) throw new Error('server B not built yet');
    return b;
  };
  const openOnB = useSockets(onB);

  it('refuses the token on B over HTTP and at the handshake, and closes its socket there', async () => {
    const alice = await signup(a());
    const profileOnB = () =>
      onB().app.inject({ method: 'GET', url: '/api/v1/user/profile', headers: alice.auth });
    expect((await profileOnB()).statusCode).toBe(200);
    const socketOnB = await openOnB({ token: alice.accessToken });
    const gone = disconnected(socketOnB);

    const out = await a().app.inject({
      method: 'POST',
      url: '/api/v1/user/logout',
      headers: alice.auth,
      payload: { refreshToken: alice.refreshToken },
    });
    expect(out.statusCode).toBe(200);
    expect((await profileOnB()).statusCode).toBe(401);
    await expect(openOnB({ token: alice.accessToken })).rejects.toThrow('Invalid or expired token');
    // With Redis, A's notice reaches B; alone, B's periodic check is what would find the socket.
    if (!redisUrl) expect(await onB().realtime.revalidate(alice.user._id)).toBe(1);
    expect(await gone).toBe('io server disconnect');
  });

  it('a refresh token replayed on A ends the login on B too: its token refused, its socket closed', async () => {
    const alice = await signup(a());
    const rotated = (
      await a().app.inject({
        method: 'POST',
        url: '/api/v1/user/refresh',
        payload: { refreshToken: alice.refreshToken },
      })
    ).json().data;
    const authOnB = { authorization: `Bearer ${rotated.accessToken}` };
    const profileOnB = () =>
      onB().app.inject({ method: 'GET', url: '/api/v1/user/profile', headers: authOnB });
    expect((await profileOnB()).statusCode).toBe(200);
    const socketOnB = await openOnB({ token: rotated.accessToken });
    const gone = disconnected(socketOnB);

    await a().ctx.db.execute(
      sql`update refresh_tokens set rotated_at = rotated_at - interval '1 minute' where user_id = ${alice.user._id}`,
    );
    const replay = await a().app.inject({
      method: 'POST',
      url: '/api/v1/user/refresh',
      payload: { refreshToken: alice.refreshToken },
    });
    expect(replay.statusCode).toBe(401);
    expect((await profileOnB()).statusCode).toBe(401);
    if (!redisUrl) expect(await onB().realtime.revalidate(alice.user._id)).toBe(1);
    expect(await gone).toBe('io server disconnect');
  });
});
