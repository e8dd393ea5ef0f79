import {
  type AuditPage,
  RECOVERY_CODE_PATTERN,
  type SignedIn,
  type TotpSetup,
  TWO_FACTOR_MESSAGES,
  type TwoFactorChallenge,
} from '@vitalwatch/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BuiltApp } from '../src/app.ts';
import { matchTotpStep, totpCode } from '../src/auth/two-factor.ts';
import { createAdmin, dbTargets, signup, type TestUser, unique, useTestApp } from './helpers.ts';

const STEP_MS = 30_000;

describe('TOTP codes (RFC 6238)', () => {
  // RFC 6238 appendix B, SHA-1: the secret is the ASCII of "12345678901234567890"; a 6-digit code
  // is the last six digits of the RFC's 8-digit value (the same truncation, mod 10^6).
  const rfcSecret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
  it.each([
    [59, '287082'],
    [1_111_111_109, '081804'],
    [1_111_111_111, '050471'],
    [1_234_567_890, '005924'],
    [2_000_000_000, '279037'],
  ])('at %i s the code is %s', (seconds, code) => {
    expect(totpCode(rfcSecret, seconds * 1000)).toBe(code);
    expect(matchTotpStep(rfcSecret, code, seconds * 1000)).toBe(Math.floor(seconds / 30));
  });

  it('accepts a code one step behind or ahead of the clock (a phone a little off), not two', () => {
    const now = 1_800_000_000_000;
    const step = Math.floor(now / STEP_MS);
    for (const skew of [-1, 0, 1])
      expect(matchTotpStep(rfcSecret, totpCode(rfcSecret, now + skew * STEP_MS), now)).toBe(step + skew);
    for (const skew of [-2, 2])
      expect(matchTotpStep(rfcSecret, totpCode(rfcSecret, now + skew * STEP_MS), now)).toBeNull();
  });
});

type Built = () => BuiltApp;

/** `who` goes on with a new access token of their session. */
function signedInWith(who: TestUser, accessToken: string): void {
  who.accessToken = accessToken;
  who.auth = { authorization: `Bearer ${accessToken}` };
}

/** The API calls of a two-factor sign-in, for one app. */
function twoFactorClient(built: Built) {
  const inject = (url: string, payload: object, who?: { auth: { authorization: string } }) =>
    built().app.inject({ method: 'POST', url, payload, ...(who ? { headers: who.auth } : {}) });
  return {
    inject,
    login: (username: string, password: string) =>
      inject('/api/v1/user/login', { user: { username, password } }),
    secondStep: (challengeToken: string, code: string) =>
      inject('/api/v1/user/login/two-factor', { challengeToken, code }),
    /** Setup and enable from the profile: the secret and the recovery codes. */
    async enrol(who: TestUser): Promise<{ secret: string; recoveryCodes: string[]; accessToken: string }> {
      const setup = await inject('/api/v1/user/two-factor/setup', { password: who.password }, who);
      expect(setup.statusCode, setup.body).toBe(200);
      const { secret } = setup.json<{ data: TotpSetup }>().data;
      const enabled = await inject('/api/v1/user/two-factor/enable', { code: totpCode(secret) }, who);
      expect(enabled.statusCode, enabled.body).toBe(200);
      const { recoveryCodes, accessToken } = enabled.json().data;
      // As the web client does: the session goes on with the new access token (the old one is refused).
      signedInWith(who, accessToken);
      return { secret, recoveryCodes, accessToken };
    },
  };
}

describe.each(dbTargets())('two-factor sign-in on $name', (target) => {
  const built = useTestApp(target);
  const client = twoFactorClient(built);
  const { inject, login, secondStep } = client;

  // Each accepted code must belong to a later 30 s step: tests move the clock (Date only) a step at a
  // time. It never goes back behind the database's clock, which stamps when passwords change.
  const nextStep = () => vi.setSystemTime(Date.now() + STEP_MS);
  beforeEach(() => {
    // A second ahead: the faked clock advances in ticks, and must never read earlier than the database's.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true, now: Date.now() + 1000 });
  });
  afterEach(() => vi.useRealTimers());

  const challengeOf = async (user: TestUser) => {
    const res = await login(user.user.username, user.password);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ message: string; data: TwoFactorChallenge }>();
    expect(body.message).toBe(TWO_FACTOR_MESSAGES.codeNeeded);
    expect(body.data).not.toHaveProperty('accessToken');
    expect(body.data.twoFactor.mode).toBe('verify');
    return body.data.twoFactor.challengeToken;
  };

  it('sets up from the profile: the password again, a QR code, the first code turns it on with ten recovery codes', async () => {
    const user = await signup(built());
    const wrong = await inject('/api/v1/user/two-factor/setup', { password: 'not-the-password' }, user);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().issues).toEqual([{ path: 'password', message: TWO_FACTOR_MESSAGES.wrongPassword }]);

    const setup = await inject('/api/v1/user/two-factor/setup', { password: user.password }, user);
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUrl, qrCode } = setup.json<{ data: TotpSetup }>().data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toBe(
      `otpauth://totp/VitalWatch:${user.user.username}?issuer=VitalWatch&secret=${secret}&algorithm=SHA1&digits=6&period=30`,
    );
    expect(Buffer.from(qrCode.replace('data:image/svg+xml;base64,', ''), 'base64').toString()).toMatch(
      /^<svg/,
    );

    // Not on until a code proves the app holds the secret.
    expect((await challengeOrSession(user)).accessToken).toEqual(expect.any(String));
    const bad = await inject('/api/v1/user/two-factor/enable', { code: '000000' }, user);
    expect(bad.statusCode).toBe(401);
    expect(bad.json().message).toBe(TWO_FACTOR_MESSAGES.invalidCode);

    const enabled = await inject('/api/v1/user/two-factor/enable', { code: totpCode(secret) }, user);
    expect(enabled.statusCode, enabled.body).toBe(200);
    const data = enabled.json().data;
    signedInWith(user, data.accessToken);
    expect(data.recoveryCodes).toHaveLength(10);
    for (const code of data.recoveryCodes) expect(code).toMatch(RECOVERY_CODE_PATTERN);
    expect(new Set(data.recoveryCodes).size).toBe(10);
    expect(data.user).toMatchObject({ twoFactorEnabled: true, recoveryCodesLeft: 10 });
    expect(enabled.body).not.toContain(secret);

    const profile = await built().app.inject({
      method: 'GET',
      url: '/api/v1/user/profile',
      headers: user.auth,
    });
    expect(profile.json().data.user).toMatchObject({ twoFactorEnabled: true, recoveryCodesLeft: 10 });
    expect(profile.body).not.toContain(secret);
  });

  it('turning it on ends every other session: none opened with the password alone lives on', async () => {
    const user = await signup(built());
    const other = (await challengeOrSession(user)) as SignedIn;
    const otherAuth = { auth: { authorization: `Bearer ${other.accessToken}` } };
    const profile = (authorization: string) =>
      built().app.inject({ method: 'GET', url: '/api/v1/user/profile', headers: { authorization } });
    expect((await profile(`Bearer ${other.accessToken}`)).statusCode).toBe(200);

    const before = user.accessToken;
    const { accessToken } = await client.enrol(user);
    expect((await profile(`Bearer ${other.accessToken}`)).statusCode).toBe(401);
    expect((await inject('/api/v1/user/refresh', { refreshToken: other.refreshToken })).statusCode).toBe(401);
    nextStep();
    const off = await inject(
      '/api/v1/user/two-factor/disable',
      { password: user.password, code: '000000' },
      otherAuth,
    );
    expect(off.statusCode).toBe(401);
    // The session that turned it on goes on, with the access token the answer carried, and refreshes.
    expect((await profile(`Bearer ${before}`)).statusCode).toBe(401);
    expect((await profile(`Bearer ${accessToken}`)).statusCode).toBe(200);
    const refreshed = await inject('/api/v1/user/refresh', { refreshToken: user.refreshToken });
    expect(refreshed.statusCode).toBe(200);
    expect((await profile(`Bearer ${refreshed.json().data.accessToken}`)).statusCode).toBe(200);
  });

  async function challengeOrSession(user: TestUser): Promise<Partial<SignedIn>> {
    const res = await login(user.user.username, user.password);
    expect(res.statusCode).toBe(200);
    return res.json().data;
  }

  it('signing in takes the password, then a code; each code works once', async () => {
    const user = await signup(built());
    const { secret } = await client.enrol(user);
    nextStep();
    const code = totpCode(secret);
    const first = await secondStep(await challengeOf(user), code);
    expect(first.statusCode, first.body).toBe(200);
    const session = first.json<{ data: SignedIn }>().data;
    expect(session.user.username).toBe(user.user.username);
    const me = await built().app.inject({
      method: 'GET',
      url: '/api/v1/user/profile',
      headers: { authorization: `Bearer ${session.accessToken}` },
    });
    expect(me.statusCode).toBe(200);

    // The same code again, even with a new challenge: refused.
    const again = await secondStep(await challengeOf(user), code);
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toBe(TWO_FACTOR_MESSAGES.invalidCode);
    // Nor does an older, never used code get in after a newer one.
    const older = await secondStep(await challengeOf(user), totpCode(secret, Date.now() - STEP_MS));
    expect(older.statusCode).toBe(401);

    nextStep();
    // Spaces as apps show them (`123 456`) are fine.
    const spaced = totpCode(secret).replace(/^(\d{3})/, '$1 ');
    expect((await secondStep(await challengeOf(user), spaced)).statusCode).toBe(200);
  });

  it('a challenge opens one login: after a typo it still works, after a sign-in never again', async () => {
    const user = await signup(built());
    const { secret, recoveryCodes } = await client.enrol(user);
    nextStep();
    const challenge = await challengeOf(user);
    expect((await secondStep(challenge, '000000')).statusCode).toBe(401);
    expect((await secondStep(challenge, totpCode(secret))).statusCode).toBe(200);
    nextStep();
    for (const code of [totpCode(secret), recoveryCodes[0]!]) {
      const again = await secondStep(challenge, code);
      expect(again.statusCode).toBe(401);
      expect(again.json().message).toBe(TWO_FACTOR_MESSAGES.challengeExpired);
    }
    // Neither code was spent by the refused attempts.
    expect((await secondStep(await challengeOf(user), totpCode(secret))).statusCode).toBe(200);
    expect((await secondStep(await challengeOf(user), recoveryCodes[0]!)).statusCode).toBe(200);
  });

  it('two codes sent at once with one challenge open one login', async () => {
    const user = await signup(built());
    const { secret, recoveryCodes } = await client.enrol(user);
    nextStep();
    const challenge = await challengeOf(user);
    const answers = await Promise.all([
      secondStep(challenge, totpCode(secret)),
      secondStep(challenge, recoveryCodes[0]!),
      secondStep(challenge, recoveryCodes[1]!),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401, 401]);
  });

  it('accepts a phone clock one step off either way, not two', async () => {
    const user = await signup(built());
    const { secret } = await client.enrol(user);
    // Three steps on, with the clock held still so no step boundary passes between code and check.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 3 * STEP_MS });
    const codeAt = (steps: number) => totpCode(secret, Date.now() + steps * STEP_MS);
    expect((await secondStep(await challengeOf(user), codeAt(-2))).statusCode).toBe(401);
    expect((await secondStep(await challengeOf(user), codeAt(2))).statusCode).toBe(401);
    expect((await secondStep(await challengeOf(user), codeAt(-1))).statusCode).toBe(200);
    expect((await secondStep(await challengeOf(user), codeAt(1))).statusCode).toBe(200);
  });

  it('a recovery code signs in once; the profile counts what is left; new ones void the old', async () => {
    const user = await signup(built());
    const { secret, recoveryCodes } = await client.enrol(user);
    const [firstCode, secondCode] = recoveryCodes as [string, string];
    const withRecovery = await secondStep(await challengeOf(user), firstCode.toUpperCase().replace('-', ''));
    expect(withRecovery.statusCode, withRecovery.body).toBe(200);
    expect(withRecovery.json().data.user.recoveryCodesLeft).toBe(9);
    expect((await secondStep(await challengeOf(user), firstCode)).statusCode).toBe(401);

    nextStep();
    const renewed = await inject('/api/v1/user/two-factor/recovery-codes', { code: totpCode(secret) }, user);
    expect(renewed.statusCode, renewed.body).toBe(200);
    const fresh: string[] = renewed.json().data.recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(secondCode);
    expect((await secondStep(await challengeOf(user), secondCode)).statusCode).toBe(401);
    expect((await secondStep(await challengeOf(user), fresh[0]!)).statusCode).toBe(200);
  });

  it('ten wrong codes lock the account like ten wrong passwords', async () => {
    const user = await signup(built());
    const { secret } = await client.enrol(user);
    const challenge = await challengeOf(user);
    for (let i = 0; i < 10; i += 1) {
      const res = await secondStep(challenge, String(100_000 + i));
      expect([401]).toContain(res.statusCode);
    }
    nextStep();
    const locked = await secondStep(challenge, totpCode(secret));
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toEqual(expect.any(String));
    // The password step is locked too: it is one account.
    expect((await login(user.user.username, user.password)).statusCode).toBe(429);
  });

  it('the right password does not forget wrong codes: only a completed sign-in does', async () => {
    const user = await signup(built());
    const { secret } = await client.enrol(user);
    // A fresh challenge (the password again) before every guess.
    const guess = async (n: number) => {
      for (let i = 0; i < n; i += 1)
        expect((await secondStep(await challengeOf(user), String(100_000 + i))).statusCode).toBe(401);
    };
    await guess(5);
    nextStep();
    expect((await secondStep(await challengeOf(user), totpCode(secret))).statusCode).toBe(200);
    // The count starts again with that sign-in: after nine more the password step still passes.
    await guess(9);
    await guess(1);
    const locked = await login(user.user.username, user.password);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('refuses a forged or expired challenge, and one issued before a password change', async () => {
    const user = await signup(built());
    const { secret } = await client.enrol(user);
    const forged = await secondStep('eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl', '123456');
    expect(forged.statusCode).toBe(401);
    expect(forged.json().message).toBe(TWO_FACTOR_MESSAGES.challengeExpired);

    const challenge = await challengeOf(user);
    vi.setSystemTime(Date.now() + 6 * 60_000);
    const late = await secondStep(challenge, totpCode(secret));
    expect(late.statusCode).toBe(401);
    expect(late.json().message).toBe(TWO_FACTOR_MESSAGES.challengeExpired);

    const pending = await challengeOf(user);
    nextStep();
    await built().ctx.users.changePassword(user.user._id, user.password, 'N3wPassword!x');
    nextStep();
    const stale = await secondStep(pending, totpCode(secret));
    expect(stale.statusCode).toBe(401);
  });

  it('turns off with the password and a code; sign-in is one step again; every change is audited', async () => {
    const user = await signup(built());
    const { secret } = await client.enrol(user);
    nextStep();
    const noCode = await inject(
      '/api/v1/user/two-factor/disable',
      { password: user.password, code: '999999' },
      user,
    );
    expect(noCode.statusCode).toBe(401);
    const noPassword = await inject(
      '/api/v1/user/two-factor/disable',
      { password: 'wrong', code: totpCode(secret) },
      user,
    );
    expect(noPassword.statusCode).toBe(400);
    const badShape = await inject(
      '/api/v1/user/two-factor/disable',
      { password: user.password, code: '12ab' },
      user,
    );
    expect(badShape.statusCode).toBe(400);
    expect(badShape.json().issues).toEqual([{ path: 'code', message: TWO_FACTOR_MESSAGES.codeFormat }]);

    const off = await inject(
      '/api/v1/user/two-factor/disable',
      { password: user.password, code: totpCode(secret) },
      user,
    );
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().data.user).toMatchObject({ twoFactorEnabled: false, recoveryCodesLeft: 0 });
    expect((await challengeOrSession(user)).accessToken).toEqual(expect.any(String));

    const admin = await createAdmin(built());
    const audit = await built().app.inject({
      method: 'GET',
      url: `/api/v1/admin/audit?actor=${user.user.username}&limit=50`,
      headers: admin.auth,
    });
    const entries = audit.json<{ data: AuditPage }>().data.entries.map((e) => `${e.action}:${e.outcome}`);
    expect(entries).toEqual(
      expect.arrayContaining([
        'two-factor-enable:success',
        'two-factor-disable:failure',
        'two-factor-disable:success',
      ]),
    );
  });
});

describe.each(dbTargets())('REQUIRE_ADMIN_2FA on $name', (target) => {
  const built = useTestApp(target, { requireAdminTwoFactor: true });
  const { inject, login, secondStep } = twoFactorClient(built);
  beforeEach(() => {
    // A second ahead: the faked clock advances in ticks, and must never read earlier than the database's.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true, now: Date.now() + 1000 });
  });
  afterEach(() => vi.useRealTimers());

  async function newAdmin() {
    const username = unique('admin');
    const password = 'Adm1nPassw0rd';
    await built().ctx.users.createUser({
      fullName: 'Admin',
      username,
      email: `${username}@example.com`,
      password,
      role: 'admin',
    });
    return { username, password };
  }

  it('an admin without it sets it up at sign-in and gets in with the first code', async () => {
    const { username, password } = await newAdmin();
    const first = await login(username, password);
    expect(first.statusCode).toBe(200);
    const body = first.json<{ message: string; data: TwoFactorChallenge }>();
    expect(body.message).toBe(TWO_FACTOR_MESSAGES.setupNeeded);
    expect(body.data.twoFactor.mode).toBe('setup');
    const secret = body.data.twoFactor.setup!.secret;
    const done = await secondStep(body.data.twoFactor.challengeToken, totpCode(secret));
    expect(done.statusCode, done.body).toBe(200);
    const session = done.json<{ data: SignedIn }>().data;
    expect(session.recoveryCodes).toHaveLength(10);
    expect(session.user.twoFactorEnabled).toBe(true);
    // The setup challenge opened its login: it opens no other.
    vi.setSystemTime(Date.now() + STEP_MS);
    const replayed = await secondStep(body.data.twoFactor.challengeToken, totpCode(secret));
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json().message).toBe(TWO_FACTOR_MESSAGES.challengeExpired);
    const users = await built().app.inject({
      method: 'POST',
      url: '/api/v1/admin/all-users',
      headers: { authorization: `Bearer ${session.accessToken}` },
    });
    expect(users.statusCode).toBe(200);
    // Refreshing keeps the second factor.
    const refreshed = await inject('/api/v1/user/refresh', { refreshToken: session.refreshToken });
    expect(refreshed.statusCode).toBe(200);
    const again = await built().app.inject({
      method: 'POST',
      url: '/api/v1/admin/all-users',
      headers: { authorization: `Bearer ${refreshed.json().data.accessToken}` },
    });
    expect(again.statusCode).toBe(200);
    // It cannot be turned off while required.
    vi.setSystemTime(Date.now() + STEP_MS);
    const off = await inject(
      '/api/v1/user/two-factor/disable',
      { password, code: totpCode(secret) },
      { auth: { authorization: `Bearer ${session.accessToken}` } },
    );
    expect(off.statusCode).toBe(403);
    expect(off.json().message).toBe(TWO_FACTOR_MESSAGES.requiredForAdmins);
  });

  it('an admin session without a second factor (from before the setting) is refused, and so is its refresh', async () => {
    const { username } = await newAdmin();
    const admin = (await built().ctx.users.checkPassword({ username, password: 'Adm1nPassw0rd' }))!;
    const old = await built().ctx.users.openSession(admin);
    const res = await built().app.inject({
      method: 'POST',
      url: '/api/v1/admin/all-users',
      headers: { authorization: `Bearer ${old.accessToken}` },
    });
    expect(res.statusCode).toBe(401);
    expect((await inject('/api/v1/user/refresh', { refreshToken: old.refreshToken })).statusCode).toBe(401);
  });

  it('users are not asked for it', async () => {
    const user = await signup(built());
    const res = await login(user.user.username, user.password);
    expect(res.json().data.accessToken).toEqual(expect.any(String));
  });
});
