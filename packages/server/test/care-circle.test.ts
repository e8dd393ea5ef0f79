import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type CareCircle, CIRCLE_MESSAGES, contracts, type HealthRecord } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { outboxDir } from '../src/mail/mailer.ts';
import { audienceOf } from '../src/modules/alert/engine-repository.ts';
import { contractClient, dataOf } from './contract-client.ts';
import { createDevice, ownedDevice, postHealth } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, unique, useTestApp } from './helpers.ts';
import { mailsIn } from './outbox-mail.ts';
import { recordEvents, useSockets } from './realtime-helpers.ts';

const c = contracts.circle;

/**
 * Issue 26, point 1: a device's care circle. Owners invite by e-mail (single-use link, 7 days,
 * replaced by a second invitation to the same address), change roles and remove people; anyone
 * leaves; viewers see data but are never notified; people who use the code after the owner wait
 * for an owner's confirmation; removal reaches open sockets at once.
 */
describe.each(dbTargets())('care circle on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  const connect = useSockets(built);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });
  const as = (user?: TestUser) => contractClient(built(), user);
  const circleOf = async (user: TestUser, deviceId: string): Promise<CareCircle> =>
    dataOf(await as(user).call(c.list, { params: { deviceId } })).data.circle;
  const auditActions = async (deviceId: string) => {
    const found = await built().ctx.db.execute(
      sql`select action from audit_events where target_id = ${deviceId} order by id`,
    );
    return z
      .object({ rows: z.array(z.object({ action: z.string() })) })
      .parse(found)
      .rows.map((r) => r.action);
  };
  const deviceIdsOf = async (user: TestUser) =>
    dataOf(await as(user).call(contracts.device.list, {})).data.devices.map((d) => d._id);

  /** The token of the newest invitation mailed to `email`, read from the outbox file. */
  const mailedToken = (email: string): string => {
    const mails = mailsIn(outboxDir(built().ctx.config.dataDir), email);
    const token = mails.at(-1)?.match(/\/invitation\/([A-Za-z0-9_-]{43})/)?.[1];
    if (!token) throw new Error(`no invitation mailed to ${email}`);
    return token;
  };
  const invite = async (owner: TestUser, deviceId: string, circleRole: 'owner' | 'carer' | 'viewer') => {
    const email = `${unique('inv')}@example.com`;
    const res = await as(owner).call(c.invite, { params: { deviceId }, body: { email, circleRole } });
    expect(res.statusCode).toBe(201);
    return { email, token: mailedToken(email) };
  };
  const joined = async (owner: TestUser, deviceId: string, circleRole: 'owner' | 'carer' | 'viewer') => {
    const { email, token } = await invite(owner, deviceId, circleRole);
    const member = await signup(built(), { email });
    expect((await as(member).call(c.accept, { body: { token } })).statusCode).toBe(200);
    return member;
  };

  it('an owner invites by e-mail; the link is read without an account, works once, and the invitee joins with its role', async () => {
    const owner = await signup(built(), { fullName: 'Dana Owner' });
    const device = await ownedDevice(built(), admin, owner, 'Dad watch');
    const { email, token } = await invite(owner, device._id, 'carer');
    const listed = await circleOf(owner, device._id);
    expect(listed.invitations).toMatchObject([{ email, circleRole: 'carer' }]);
    expect(listed.members).toMatchObject([
      { userId: owner.user._id, circleRole: 'owner', alerts: 'primary' },
    ]);

    const preview = dataOf(await as().call(c.invitation, { body: { token } })).data.invitation;
    expect(preview).toMatchObject({ deviceName: 'Dad watch', invitedBy: 'Dana Owner', state: 'open', email });

    const invitee = await signup(built(), { email });
    expect(await deviceIdsOf(invitee)).toEqual([]);
    expect((await as(invitee).call(c.accept, { body: { token } })).statusCode).toBe(200);
    expect(await deviceIdsOf(invitee)).toEqual([device._id]);
    const after = await circleOf(owner, device._id);
    expect(after.invitations).toEqual([]);
    expect(after.members.map((m) => [m.userId, m.circleRole, m.alerts])).toEqual([
      [owner.user._id, 'owner', 'primary'],
      [invitee.user._id, 'carer', 'primary'],
    ]);

    // Single use: the same link again, by anyone, says it was used.
    const other = await signup(built());
    const again = await as(other).call(c.accept, { body: { token } });
    expect(again.statusCode).toBe(409);
    expect(again.body.message).toBe(CIRCLE_MESSAGES.invitationUsed);
    expect(dataOf(await as().call(c.invitation, { body: { token } })).data.invitation.state).toBe('used');
    expect((await as().call(c.invitation, { body: { token: 'x'.repeat(43) } })).statusCode).toBe(404);

    expect(await auditActions(device._id)).toEqual(expect.arrayContaining(['circle-invite', 'circle-join']));
  });

  it('an expired link says so, and asking for a new one mails the inviter', async () => {
    const owner = await signup(built());
    const device = await ownedDevice(built(), admin, owner, 'Expiring');
    const { email, token } = await invite(owner, device._id, 'viewer');
    await built().ctx.db.execute(
      sql`update circle_invitations set expires_at = now() - interval '1 second' where email = ${email}`,
    );
    expect(dataOf(await as().call(c.invitation, { body: { token } })).data.invitation.state).toBe('expired');
    const invitee = await signup(built(), { email });
    const refused = await as(invitee).call(c.accept, { body: { token } });
    expect(refused.statusCode).toBe(409);
    expect(refused.body.message).toBe(CIRCLE_MESSAGES.invitationExpired);
    expect(await deviceIdsOf(invitee)).toEqual([]);
    expect((await circleOf(owner, device._id)).invitations).toEqual([]);

    expect((await as().call(c.askAgain, { body: { token } })).statusCode).toBe(200);
    const dir = outboxDir(built().ctx.config.dataDir);
    const toOwner = readdirSync(dir)
      .map((f) => readFileSync(path.join(dir, f), 'utf8'))
      .filter((m) => m.includes(`To: ${owner.user.email}`));
    expect(toOwner.some((m) => m.includes('asks for a new invitation'))).toBe(true);
  });

  it('a second invitation to the same address replaces the first; an existing member is refused; owners only', async () => {
    const owner = await signup(built());
    const device = await ownedDevice(built(), admin, owner);
    const email = `${unique('twice')}@example.com`;
    await as(owner).call(c.invite, {
      params: { deviceId: device._id },
      body: { email, circleRole: 'carer' },
    });
    const first = mailedToken(email);
    await as(owner).call(c.invite, {
      params: { deviceId: device._id },
      body: { email: email.toUpperCase(), circleRole: 'viewer' },
    });
    const second = mailedToken(email);
    expect(second).not.toBe(first);
    expect((await circleOf(owner, device._id)).invitations).toMatchObject([{ email, circleRole: 'viewer' }]);
    const invitee = await signup(built(), { email });
    const old = await as(invitee).call(c.accept, { body: { token: first } });
    expect(old.statusCode).toBe(409);
    expect(old.body.message).toBe(CIRCLE_MESSAGES.invitationRevoked);
    expect((await as(invitee).call(c.accept, { body: { token: second } })).statusCode).toBe(200);

    const member = await as(owner).call(c.invite, {
      params: { deviceId: device._id },
      body: { email, circleRole: 'carer' },
    });
    expect(member.statusCode).toBe(409);
    expect(member.body.message).toBe(CIRCLE_MESSAGES.alreadyMember);

    // A viewer may not invite (403); a stranger does not see the device (404).
    const notOwner = await as(invitee).call(c.invite, {
      params: { deviceId: device._id },
      body: { email: 'x@example.com', circleRole: 'carer' },
    });
    expect(notOwner.statusCode).toBe(403);
    const stranger = await signup(built());
    expect((await as(stranger).call(c.list, { params: { deviceId: device._id } })).statusCode).toBe(404);
    const bad = await as(owner).callLoose(c.invite, {
      params: { deviceId: device._id },
      body: { email: 'nope', circleRole: 'boss' },
    });
    expect(bad.statusCode).toBe(400);

    // Revoking: the link stops working.
    const { token, email: revokedEmail } = await invite(owner, device._id, 'carer');
    const open = (await circleOf(owner, device._id)).invitations.find((i) => i.email === revokedEmail)!;
    expect(
      (await as(owner).call(c.revoke, { params: { deviceId: device._id }, body: { invitationId: open._id } }))
        .statusCode,
    ).toBe(200);
    expect(dataOf(await as().call(c.invitation, { body: { token } })).data.invitation.state).toBe('revoked');
  });

  it('roles: owners change them and remove people, the last owner stays, anyone leaves', async () => {
    const owner = await signup(built());
    const device = await ownedDevice(built(), admin, owner);
    const carer = await joined(owner, device._id, 'carer');
    const params = { deviceId: device._id };

    const demoteSelf = await as(owner).call(c.changeRole, {
      params,
      body: { userId: owner.user._id, circleRole: 'carer' },
    });
    expect(demoteSelf.statusCode).toBe(409);
    expect(demoteSelf.body.message).toBe(CIRCLE_MESSAGES.lastOwner);
    expect(
      (await as(carer).call(c.changeRole, { params, body: { userId: carer.user._id, circleRole: 'owner' } }))
        .statusCode,
    ).toBe(403);

    const promoted = await as(owner).call(c.changeRole, {
      params,
      body: { userId: carer.user._id, circleRole: 'owner', contactRole: 'backup' },
    });
    expect(dataOf(promoted).data.circle.members.find((m) => m.userId === carer.user._id)).toMatchObject({
      circleRole: 'owner',
      alerts: 'backup',
    });
    // Now two owners: the first may step down, and leave.
    expect(
      (await as(owner).call(c.changeRole, { params, body: { userId: owner.user._id, circleRole: 'viewer' } }))
        .statusCode,
    ).toBe(200);
    const left = await as(owner).call(c.remove, { params, body: { userId: owner.user._id } });
    expect(left.statusCode).toBe(200);
    expect(left.body.message).toBe(CIRCLE_MESSAGES.left);
    expect(await deviceIdsOf(owner)).toEqual([]);
    expect((await auditActions(device._id)).filter((a) => a.startsWith('circle-'))).toEqual([
      'circle-invite',
      'circle-join',
      'circle-role',
      'circle-role',
      'circle-leave',
    ]);
  });

  it('a viewer sees the data and is never notified of alerts', async () => {
    const owner = await signup(built());
    const device = await ownedDevice(built(), admin, owner);
    const viewer = await joined(owner, device._id, 'viewer');
    const carer = await joined(owner, device._id, 'carer');
    expect(await deviceIdsOf(viewer)).toEqual([device._id]);
    const audience = await audienceOf(built().ctx.db, device._id);
    expect(audience.userIds.sort()).toEqual([owner.user._id, viewer.user._id, carer.user._id].sort());
    expect(audience.contactIds.sort()).toEqual([owner.user._id, carer.user._id].sort());
    expect(
      (await circleOf(owner, device._id)).members.find((m) => m.userId === viewer.user._id)?.alerts,
    ).toBe('none');

    // Even when every other person is a backup (then all are primary), the viewer is not notified.
    await as(owner).call(c.changeRole, {
      params: { deviceId: device._id },
      body: { userId: owner.user._id, circleRole: 'owner', contactRole: 'backup' },
    });
    await as(owner).call(c.changeRole, {
      params: { deviceId: device._id },
      body: { userId: carer.user._id, circleRole: 'carer', contactRole: 'backup' },
    });
    expect((await audienceOf(built().ctx.db, device._id)).contactIds.sort()).toEqual(
      [owner.user._id, carer.user._id].sort(),
    );
  });

  it('after the owner, whoever uses the code waits for an owner to confirm them; an owner regenerates the code', async () => {
    const owner = await signup(built());
    const device = await ownedDevice(built(), admin, owner);
    const late = await signup(built());
    const add = () =>
      as(late).call(contracts.device.add, { body: { data: { activationCode: device.activationCode } } });
    const pending = await add();
    expect(pending.statusCode).toBe(403);
    expect(pending.body.message).toBe(CIRCLE_MESSAGES.pendingConfirmation);
    expect((await add()).body.message).toBe(CIRCLE_MESSAGES.pendingConfirmation);
    // The owner is asked by e-mail, once.
    const dir = outboxDir(built().ctx.config.dataDir);
    const asked = readdirSync(dir)
      .map((f) => readFileSync(path.join(dir, f), 'utf8'))
      .filter((m) => m.includes(`To: ${owner.user.email}`) && m.includes('used the activation code'));
    expect(asked).toHaveLength(1);
    expect(await deviceIdsOf(late)).toEqual([]);
    expect((await audienceOf(built().ctx.db, device._id)).userIds).toEqual([owner.user._id]);
    expect((await circleOf(owner, device._id)).members.find((m) => m.userId === late.user._id)).toMatchObject(
      {
        pending: true,
        alerts: 'none',
      },
    );

    expect(
      (await as(owner).call(c.confirm, { params: { deviceId: device._id }, body: { userId: late.user._id } }))
        .statusCode,
    ).toBe(200);
    expect(await deviceIdsOf(late)).toEqual([device._id]);

    const fresh = dataOf(await as(owner).call(c.regenerateCode, { params: { deviceId: device._id } })).data
      .activationCode;
    expect(fresh).not.toBe(device.activationCode);
    expect((await as(late).call(c.regenerateCode, { params: { deviceId: device._id } })).statusCode).toBe(
      403,
    );
    const other = await signup(built());
    const old = await as(other).call(contracts.device.add, {
      body: { data: { activationCode: device.activationCode } },
    });
    expect(old.statusCode).toBe(404);
  });

  it('removing a person ends their access on sockets already open, and tells them at once', async () => {
    const owner = await signup(built());
    const device = await ownedDevice(built(), admin, owner);
    const carer = await joined(owner, device._id, 'carer');
    const socket = await connect({ token: carer.accessToken });
    const health = recordEvents(socket, 'healthDataUpdate');
    const changed = recordEvents(socket, 'devicesChanged');
    const reading = (heartRate: number) => ({ heartRate, spo2: 97, temperature: 98.2, battery: 80 });
    expect((await postHealth(built(), device.apiAuthCode, reading(71))).statusCode).toBe(202);
    await health.waitFor(1);

    expect(
      (await as(owner).call(c.remove, { params: { deviceId: device._id }, body: { userId: carer.user._id } }))
        .statusCode,
    ).toBe(200);
    await changed.waitFor(1);
    expect(await deviceIdsOf(carer)).toEqual([]);
    // A marker on a device still theirs shows the socket is live and nothing of the old one came.
    const own = await createDevice(built(), admin, { users: [carer.user._id] });
    expect((await postHealth(built(), device.apiAuthCode, reading(99))).statusCode).toBe(202);
    await built().ctx.ingest.drain();
    expect((await postHealth(built(), own.apiAuthCode, reading(60))).statusCode).toBe(202);
    const after = await health.waitFor(2);
    expect(after.map((r) => (r as HealthRecord).heartRate)).toEqual([71, 60]);
    const removed = await built().ctx.db.execute(
      sql`select detail->>'user' as who from audit_events where action = 'circle-remove' and target_id = ${device._id}`,
    );
    expect(z.object({ rows: z.array(z.object({ who: z.string() })) }).parse(removed).rows).toEqual([
      { who: carer.user._id },
    ]);
  });

  it('closing an account withdraws every invitation it sent', async () => {
    const owner = await signup(built());
    const device = await ownedDevice(built(), admin, owner);
    await invite(owner, device._id, 'carer');
    await invite(owner, device._id, 'viewer');
    const sent = sql`select count(*)::int as n from circle_invitations where device_id = ${device._id}`;
    const count = async () =>
      z.object({ rows: z.tuple([z.object({ n: z.number() })]) }).parse(await built().ctx.db.execute(sent))
        .rows[0].n;
    expect(await count()).toBe(2);
    await built().ctx.account.close(owner.user._id, owner.password, undefined);
    expect(await count()).toBe(0);
  });
});
