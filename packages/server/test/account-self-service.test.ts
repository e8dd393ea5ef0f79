import { sql } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { outboxDir } from '../src/mail/mailer.ts';
import { addByCode, createDevice, joinByCode, ownedDevice, postAlert, postHealth } from './device-helpers.ts';
import { fhirValidator } from './fhir-validate.ts';
import { createAdmin, dbTargets, signup, type TestUser, useTestApp } from './helpers.ts';
import { mailsIn } from './outbox-mail.ts';
import { disconnected, useSockets } from './realtime-helpers.ts';

/** Issue 26, points 2-5: forgot password, e-mail verification, sessions, the data download, closing. */
describe.each(dbTargets())('account self-service on $name', (target) => {
  const built = useTestApp(target, { publicUrl: 'https://vitalwatch.example' });
  const openSocket = useSockets(built);
  const post = (url: string, payload?: object, headers?: Record<string, string>) =>
    built().app.inject({ method: 'POST', url: `/api/v1${url}`, payload, headers });
  /** Every message of the outbox sent to `to`, oldest first (unfolded, soft breaks joined). */
  const mailsTo = async (to: string) => {
    await built().ctx.account.idle();
    return mailsIn(outboxDir(built().ctx.config.dataDir), to);
  };
  const linkIn = (mail: string | undefined, page: string) => {
    const match = mail?.match(new RegExp(`https://vitalwatch\\.example/${page}\\?token=([A-Za-z0-9_-]+)`));
    if (!match) throw new Error(`no ${page} link in ${mail}`);
    return match[1]!;
  };
  const login = (user: TestUser, password = user.password) =>
    post('/user/login', { user: { username: user.user.username, password } });
  const handedOut = new Set<string>();
  /** The link of the reset mail just asked for: the one not handed out before (file names may tie). */
  const resetLinkFor = async (user: TestUser) => {
    expect((await post('/account/forgot-password', { email: user.user.email })).statusCode).toBe(202);
    const links = (await mailsTo(user.user.email))
      .filter((m) => m.includes('/reset-password?token='))
      .map((m) => linkIn(m, 'reset-password'))
      .filter((t) => !handedOut.has(t));
    expect(links).toHaveLength(1);
    handedOut.add(links[0]!);
    return links[0]!;
  };

  it('answers a reset request alike for any address, and mails a link only to an account', async () => {
    const alice = await signup(built());
    const known = await post('/account/forgot-password', { email: alice.user.email.toUpperCase() });
    const unknown = await post('/account/forgot-password', { email: 'nobody-here@example.com' });
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.json()).toEqual(unknown.json());
    expect(await mailsTo('nobody-here@example.com')).toEqual([]);
    // Beside the verification mail of the sign-up, whose file may sort after it (names tie within a millisecond).
    const resets = (await mailsTo(alice.user.email)).filter((m) =>
      m.includes('Subject: Reset your VitalWatch password'),
    );
    expect(resets).toHaveLength(1);
    expect(resets[0]).toContain('The link works once, for 30 minutes.');
  });

  it('takes as long for an unknown address as for a known one (paired medians within noise)', async () => {
    const users = await Promise.all(Array.from({ length: 24 }, () => signup(built())));
    const timed = async (email: string) => {
      const start = process.hrtime.bigint();
      expect((await post('/account/forgot-password', { email })).statusCode).toBe(202);
      const took = Number(process.hrtime.bigint() - start) / 1e6;
      // The mail sent after the answer is not part of it: it does not slow the next one either.
      await built().ctx.account.idle();
      return took;
    };
    const differences: number[] = [];
    const all: number[] = [];
    // Pairs one right after the other, in alternating order: a slow moment of the machine falls on
    // both of a pair, and the median of the differences ignores the pairs it did not.
    for (const [i, u] of users.entries()) {
      const missing = `missing-${i}-${u.user.username}@example.com`;
      let known: number;
      let unknown: number;
      if (i % 2 === 0) {
        known = await timed(u.user.email);
        unknown = await timed(missing);
      } else {
        unknown = await timed(missing);
        known = await timed(u.user.email);
      }
      differences.push(known - unknown);
      all.push(known, unknown);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // The same statements run either way (a decoy link for the unknown address); the mail goes out after.
    expect(Math.abs(median(differences))).toBeLessThan(Math.max(5, 0.5 * median(all)));
  });

  it('limits reset requests per address, whether or not an account has it', async () => {
    const bob = await signup(built());
    for (const email of [bob.user.email, 'limit-nobody@example.com']) {
      for (let i = 0; i < 5; i++)
        expect((await post('/account/forgot-password', { email })).statusCode).toBe(202);
      const sixth = await post('/account/forgot-password', { email });
      expect(sixth.statusCode).toBe(429);
      expect(sixth.json().message).toBe('Too many reset requests for this address. Try again later.');
    }
    // The account's count stops the mails first: its verification and four resets make five.
    expect(await mailsTo(bob.user.email)).toHaveLength(5);
  });

  it('stops mailing an account past its daily count, with the same answer', async () => {
    const carol = await signup(built());
    const mailsBefore = (await mailsTo(carol.user.email)).length;
    // The account counts every reset and verification mail: the signup's verification was one.
    for (let i = 0; i < 4; i++) await built().ctx.account.requestReset(carol.user.email);
    await built().ctx.account.requestReset(`  ${carol.user.email.toUpperCase()} `);
    expect((await mailsTo(carol.user.email)).length - mailsBefore).toBe(4);
  });

  it('a reset link works once, ends every session and its sockets, and keeps two-factor', async () => {
    const dan = await signup(built());
    const socket = await openSocket({ token: dan.accessToken });
    const gone = disconnected(socket);
    const token = await resetLinkFor(dan);
    expect((await post('/account/link-status', { token, purpose: 'reset' })).json().data.state).toBe('valid');
    const body = { token, newPassword: 'Fresh1Pass', cnfPassword: 'Fresh1Pass' };
    const done = await post('/account/reset-password', body);
    expect(done.statusCode).toBe(200);
    expect(done.json().message).toBe('Your password has been changed. Sign in with the new one.');
    expect(await gone).toBe('io server disconnect');
    expect((await post('/user/refresh', { refreshToken: dan.refreshToken })).statusCode).toBe(401);
    expect((await built().app.inject({ url: '/api/v1/user/profile', headers: dan.auth })).statusCode).toBe(
      401,
    );
    expect((await login(dan)).statusCode).toBe(401);
    expect((await login(dan, 'Fresh1Pass')).statusCode).toBe(200);

    const again = await post('/account/reset-password', body);
    expect(again.statusCode).toBe(410);
    expect(again.json()).toMatchObject({ code: 'LINK_USED', message: 'This link has already been used.' });
    expect((await post('/account/link-status', { token, purpose: 'reset' })).json().data.state).toBe('used');
  });

  it('an expired link says so; a made-up one is not valid; two-factor still asks for a code', async () => {
    const erin = await signup(built());
    const token = await resetLinkFor(erin);
    await built().ctx.db.execute(
      sql`update account_links set expires_at = now() - interval '1 second' where user_id = ${erin.user._id}::uuid`,
    );
    const late = await post('/account/reset-password', {
      token,
      newPassword: 'Fresh1Pass',
      cnfPassword: 'Fresh1Pass',
    });
    expect(late.statusCode).toBe(410);
    expect(late.json()).toMatchObject({ code: 'LINK_EXPIRED', message: 'This link has expired.' });
    const bogus = await post('/account/reset-password', {
      token: 'made-up',
      newPassword: 'Fresh1Pass',
      cnfPassword: 'Fresh1Pass',
    });
    expect(bogus.statusCode).toBe(400);

    await built().ctx.db.execute(
      sql`update users set totp_secret = 'sealed' where id = ${erin.user._id}::uuid`,
    );
    const fresh = await resetLinkFor(erin);
    expect(
      (
        await post('/account/reset-password', {
          token: fresh,
          newPassword: 'Fresh1Pass',
          cnfPassword: 'Fresh1Pass',
        })
      ).statusCode,
    ).toBe(200);
    const signIn = await login(erin, 'Fresh1Pass');
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().data.twoFactor.mode).toBe('verify');
  });

  it('a new account verifies its address by link; until then it gets no alert e-mails', async () => {
    const admin = await createAdmin(built());
    const fay = await signup(built());
    expect(fay.user.emailVerified).toBe(false);
    const device = await createDevice(built(), admin, { users: [fay.user._id] });
    await post('/user/alert-emails', { enabled: true }, fay.auth);
    expect((await postAlert(built(), device.apiAuthCode, { alertType: 'FALL' })).statusCode).toBeLessThan(
      300,
    );
    await built().ctx.outbox.idle();
    expect((await mailsTo(fay.user.email)).filter((m) => m.includes('VitalWatch alert'))).toEqual([]);

    const token = linkIn(
      (await mailsTo(fay.user.email)).find((m) => m.includes('/verify-email?token=')),
      'verify-email',
    );
    expect((await post('/account/verify-email', { token })).statusCode).toBe(200);
    expect((await post('/account/verify-email', { token })).statusCode).toBe(410);
    const profile = await built().app.inject({ url: '/api/v1/user/profile', headers: fay.auth });
    expect(profile.json().data.user.emailVerified).toBe(true);
    expect((await postAlert(built(), device.apiAuthCode, { alertType: 'SOS' })).statusCode).toBeLessThan(300);
    await built().ctx.outbox.idle();
    expect((await mailsTo(fay.user.email)).some((m) => m.includes('Subject: VitalWatch alert'))).toBe(true);
  });

  it('lists the signed-in browsers and ends one or all others, closing their sockets', async () => {
    const gus = await signup(built());
    const other = (await login(gus)).json().data;
    const otherAuth = { authorization: `Bearer ${other.accessToken}`, 'user-agent': 'Firefox on a phone' };
    await built().app.inject({ url: '/api/v1/user/profile', headers: otherAuth });
    const socket = await openSocket({ token: other.accessToken });
    const gone = disconnected(socket);
    const listed = await built().app.inject({ url: '/api/v1/account/sessions', headers: gus.auth });
    const sessions = listed.json().data.sessions as { id: string; userAgent: string; current: boolean }[];
    expect(sessions).toHaveLength(2);
    const phone = sessions.find((s) => s.userAgent === 'Firefox on a phone');
    expect(phone?.current).toBe(false);

    const ended = await built().app.inject({
      method: 'DELETE',
      url: `/api/v1/account/sessions/${phone?.id}`,
      headers: gus.auth,
    });
    expect(ended.statusCode).toBe(200);
    expect(await gone).toBe('io server disconnect');
    expect((await built().app.inject({ url: '/api/v1/user/profile', headers: otherAuth })).statusCode).toBe(
      401,
    );
    expect((await post('/user/refresh', { refreshToken: other.refreshToken })).statusCode).toBe(401);
    const left = await built().app.inject({ url: '/api/v1/account/sessions', headers: gus.auth });
    expect(left.json().data.sessions).toHaveLength(1);

    const third = (await login(gus)).json().data;
    expect((await post('/account/sessions/end-others', undefined, gus.auth)).statusCode).toBe(200);
    expect((await post('/user/refresh', { refreshToken: third.refreshToken })).statusCode).toBe(401);
    expect((await built().app.inject({ url: '/api/v1/user/profile', headers: gus.auth })).statusCode).toBe(
      200,
    );
    // Someone else's session is not found.
    const stranger = await signup(built());
    const theirs = await built().app.inject({
      method: 'DELETE',
      url: `/api/v1/account/sessions/${sessions[0]?.id}`,
      headers: stranger.auth,
    });
    expect(theirs.statusCode).toBe(404);
  });

  it('downloads everything about the user as a ZIP: profile, circles, readings CSV, FHIR Bundle, audit', async () => {
    const admin = await createAdmin(built());
    const hal = await signup(built(), { fullName: 'Hal Owner' });
    const device = await ownedDevice(built(), admin, hal, 'Hal band');
    const stored = await postHealth(built(), device.apiAuthCode, {
      spo2: 97,
      heartRate: 71,
      temperature: 98.4,
      recordedAt: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(stored.statusCode).toBeLessThan(300);
    const res = await built().app.inject({ url: '/api/v1/account/data', headers: hal.auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const files = unzipSync(new Uint8Array(res.rawPayload));
    const text = (name: string) => strFromU8(files[name] ?? new Uint8Array());
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining([
        'README.txt',
        'profile.json',
        'devices.json',
        'care-circles.json',
        'audit-events.ndjson',
        `devices/${device._id}/readings-raw.csv`,
        `devices/${device._id}/fhir-bundle.json`,
      ]),
    );
    expect(JSON.parse(text('profile.json'))).toMatchObject({ _id: hal.user._id, fullName: 'Hal Owner' });
    expect(JSON.parse(text('care-circles.json'))[0].members).toEqual([
      expect.objectContaining({ name: 'Hal Owner', role: 'owner', alerts: 'primary' }),
    ]);
    const csv = text(`devices/${device._id}/readings-raw.csv`).trim().split('\r\n');
    expect(csv[0]).toBe('recorded_at,spo2_percent,heart_rate_bpm,temperature_f,battery_percent');
    expect(csv[1]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z,97,71,98.4,$/);
    const bundle = JSON.parse(text(`devices/${device._id}/fhir-bundle.json`));
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection' });
    // Valid for both validators of the FHIR tests (the R4 JSON Schema and Medplum's, with profiles).
    expect((await fhirValidator())(bundle)).toEqual([]);
    expect(bundle.entry.map((e: { resource: { resourceType: string } }) => e.resource.resourceType)).toEqual(
      expect.arrayContaining(['Device', 'Patient', 'Observation']),
    );
    const audit = text('audit-events.ndjson')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(audit.map((e) => e.action)).toEqual(expect.arrayContaining(['sign-up', 'account-data-download']));
  });

  it('closes an account: sole-owned devices pass to the next carer, the last admin cannot, a mail confirms', async () => {
    const admin = await createAdmin(built());
    const ida = await signup(built());
    const carer = await signup(built());
    const device = await ownedDevice(built(), admin, ida, 'Ida band');
    // Earlier, but still waiting for Ida to confirm them: not the heir.
    const waiting = await signup(built());
    const asked = await addByCode(built(), waiting, device.activationCode);
    expect(asked.statusCode).toBe(403);
    await joinByCode(built(), ida, carer, device.activationCode);
    const socket = await openSocket({ token: ida.accessToken });
    const gone = disconnected(socket);

    expect((await post('/account/close', { password: 'Wrong1Pass' }, ida.auth)).statusCode).toBe(400);
    const closed = await post('/account/close', { password: ida.password }, ida.auth);
    expect(closed.statusCode).toBe(200);
    expect(closed.json().message).toBe('Your account has been closed.');
    expect(await gone).toBe('io server disconnect');
    expect((await login(ida)).statusCode).toBe(401);
    const roles = await built().ctx.db.execute(
      sql`select user_id::text, circle_role from device_users where device_id = ${device._id}::uuid`,
    );
    expect((roles as { rows: unknown[] }).rows).toContainEqual({
      user_id: carer.user._id,
      circle_role: 'owner',
    });
    expect((roles as { rows: unknown[] }).rows).toContainEqual({
      user_id: waiting.user._id,
      circle_role: 'carer',
    });
    expect((await mailsTo(ida.user.email)).at(-1)).toContain('Subject: Your VitalWatch account is closed');
    const audit = await built().ctx.db.execute(
      sql`select count(*)::int as n from audit_events where actor_id = ${ida.user._id}::uuid`,
    );
    expect((audit as { rows: { n: number }[] }).rows[0]?.n).toBeGreaterThan(1);
    // The admin's log keeps them, by id only: the name is no longer shown.
    const log = await built().app.inject({
      url: `/api/v1/admin/audit?limit=100&targetId=${ida.user._id}`,
      headers: admin.auth,
    });
    const entries = log.json().data.entries as {
      action: string;
      actorId: string;
      actorName: string | null;
    }[];
    expect(entries.map((e) => e.action)).toEqual(expect.arrayContaining(['account-close', 'sign-up']));
    for (const e of entries.filter((x) => x.actorId === ida.user._id)) expect(e.actorName).toBeNull();

    await built().ctx.db.execute(
      sql`delete from users where role = 'admin' and id <> ${admin.user._id}::uuid`,
    );
    const last = await post('/account/close', { password: admin.password }, admin.auth);
    expect(last.statusCode).toBe(409);
    expect(last.json().message).toBe(
      'You are the last admin: make someone else an admin before closing your account.',
    );
  });
});
