import { randomUUID } from 'node:crypto';
import { type CareCircle, CIRCLE_MESSAGES, contracts } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contractClient, dataOf, issuesOf } from './contract-client.ts';
import { createDevice, ownedDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, unique, useTestApp } from './helpers.ts';
import { recordEvents, useSockets } from './realtime-helpers.ts';

const c = contracts.adminCircle;

/**
 * Issue 26, point 1: "a device has at least one owner (the first user to add it by activation
 * code, or whom an admin makes owner)". An admin sees any device's circle and sets anyone's role
 * in it; the last owner is kept; the change is audited and reaches the person's open sockets.
 */
describe.each(dbTargets())('an admin runs any care circle on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  const connect = useSockets(built);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });
  const as = (user: TestUser) => contractClient(built(), user);
  const circleAsAdmin = async (deviceId: string): Promise<CareCircle> =>
    dataOf(await as(admin).call(c.list, { params: { deviceId } })).data.circle;
  const setRole = (deviceId: string, userId: string, circleRole: 'owner' | 'carer' | 'viewer') =>
    as(admin).call(c.changeRole, { params: { deviceId }, body: { userId, circleRole } });
  const invite = (owner: TestUser, deviceId: string) =>
    as(owner).call(contracts.circle.invite, {
      params: { deviceId },
      body: { email: `${unique('inv')}@example.com`, circleRole: 'viewer' },
    });

  it('makes an admin-assigned carer the owner of a device nobody owned, who can then run its circle', async () => {
    const [carer, other] = await Promise.all([signup(built()), signup(built())]);
    const device = await createDevice(built(), admin, { users: [carer.user._id, other.user._id] });
    expect((await circleAsAdmin(device._id)).members.map((m) => m.circleRole)).toEqual(['carer', 'carer']);
    expect((await invite(carer, device._id)).statusCode).toBe(403);

    const made = await setRole(device._id, carer.user._id, 'owner');
    expect(made.statusCode).toBe(200);
    const circle = dataOf(made).data.circle;
    expect(circle.canManage).toBe(true);
    expect(circle.members.find((m) => m.userId === carer.user._id)?.circleRole).toBe('owner');
    expect((await invite(carer, device._id)).statusCode).toBe(201);

    const audit = await built().ctx.db.execute(
      sql`select detail from audit_events where action = 'circle-role' and target_id = ${device._id}`,
    );
    expect(z.object({ rows: z.array(z.object({ detail: z.unknown() })) }).parse(audit).rows).toEqual([
      { detail: { user: carer.user._id, from: 'carer', to: 'owner', by: 'admin' } },
    ]);
  });

  it('keeps the last owner (409) and steps one of two owners down', async () => {
    const [first, second] = await Promise.all([signup(built()), signup(built())]);
    const device = await createDevice(built(), admin, { users: [first.user._id, second.user._id] });
    expect((await setRole(device._id, first.user._id, 'owner')).statusCode).toBe(200);
    const refused = await setRole(device._id, first.user._id, 'carer');
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toMatchObject({ success: false, message: CIRCLE_MESSAGES.lastOwner });

    expect((await setRole(device._id, second.user._id, 'owner')).statusCode).toBe(200);
    const stepped = await setRole(device._id, first.user._id, 'viewer');
    expect(stepped.statusCode).toBe(200);
    const roles = dataOf(stepped).data.circle.members.map((m) => [m.userId, m.circleRole, m.alerts]);
    expect(roles).toEqual(
      expect.arrayContaining([
        [first.user._id, 'viewer', 'none'],
        [second.user._id, 'owner', 'primary'],
      ]),
    );
  });

  it("confirms someone waiting on an owner, and tells that person's open socket at once", async () => {
    const [owner, waiting] = await Promise.all([signup(built()), signup(built())]);
    const device = await ownedDevice(built(), admin, owner);
    const byCode = await as(waiting).call(contracts.device.add, {
      body: { data: { activationCode: device.activationCode } },
    });
    expect(byCode.statusCode).toBe(403);
    const socket = await connect({ token: waiting.accessToken });
    const changed = recordEvents(socket, 'devicesChanged');

    expect((await setRole(device._id, waiting.user._id, 'owner')).statusCode).toBe(200);
    await changed.waitFor(1);
    const mine = dataOf(await as(waiting).call(contracts.device.list, {})).data.devices;
    expect(mine.map((d) => [d._id, d.circleRole])).toEqual([[device._id, 'owner']]);
    expect((await circleAsAdmin(device._id)).members.every((m) => !m.pending)).toBe(true);
  });

  it('is for admins only, and answers 404 for an unknown device or a person outside the circle', async () => {
    const [owner, stranger] = await Promise.all([signup(built()), signup(built())]);
    const device = await ownedDevice(built(), admin, owner);
    expect((await as(owner).call(c.list, { params: { deviceId: device._id } })).statusCode).toBe(403);
    expect(
      (
        await as(owner).call(c.changeRole, {
          params: { deviceId: device._id },
          body: { userId: owner.user._id, circleRole: 'owner' },
        })
      ).statusCode,
    ).toBe(403);
    expect((await as(admin).call(c.list, { params: { deviceId: randomUUID() } })).statusCode).toBe(404);
    expect((await setRole(randomUUID(), owner.user._id, 'owner')).statusCode).toBe(404);
    const outside = await setRole(device._id, stranger.user._id, 'owner');
    expect(outside.statusCode).toBe(404);
    expect(outside.body).toMatchObject({ message: CIRCLE_MESSAGES.notMember });
    const invalid = await as(admin).callLoose(c.changeRole, {
      params: { deviceId: device._id },
      body: { userId: owner.user._id, circleRole: 'boss' },
    });
    expect(invalid.statusCode).toBe(400);
    expect(issuesOf(invalid)).toEqual([
      expect.objectContaining({ path: 'circleRole', message: 'Choose owner, carer or viewer' }),
    ]);
  });
});
