import { readFileSync } from 'node:fs';
import { DEVICE_MESSAGES, type UserDevice } from '@vitalwatch/shared';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { deviceUsers } from '../src/db/schema.ts';
import { createDevice, joinByCode, ownedDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, useTestApp } from './helpers.ts';

/**
 * Issue 27, point 12c/e: a device's circle. The first to add it by activation code owns it; the
 * owner (and admins) rename it for everyone and change its alarm settings; anyone else in the
 * circle gives it a name of their own and reads the settings (403 on a change).
 */
describe.each(dbTargets())('device circle roles on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });
  const asUser = (user: TestUser, url: string, payload?: object) =>
    built().app.inject({ method: 'POST', url: `/api/v1/device${url}`, headers: user.auth, payload });
  const mine = async (user: TestUser, deviceId: string): Promise<UserDevice> => {
    const res = await asUser(user, '/get-device');
    expect(res.statusCode).toBe(200);
    const found = (res.json().data.devices as UserDevice[]).find((d) => d._id === deviceId);
    expect(found).toBeDefined();
    return found as UserDevice;
  };
  const addByCode = (user: TestUser, activationCode: string, deviceName?: string) =>
    asUser(user, '/add-device', { data: { activationCode, ...(deviceName ? { deviceName } : {}) } });

  it('the first to add a device by its code owns it; later ones (once confirmed) and admin-assigned users are carers', async () => {
    const [assigned, first, second] = await Promise.all([signup(built()), signup(built()), signup(built())]);
    const device = await createDevice(built(), admin, { users: [assigned.user._id], deviceName: 'Band' });
    expect((await addByCode(first, device.activationCode, "Mum's band")).statusCode).toBe(200);
    await joinByCode(built(), first, second, device.activationCode, 'Granny');
    expect(await mine(assigned, device._id)).toMatchObject({ circleRole: 'carer', deviceName: "Mum's band" });
    // The owner's name is everyone's; a later adder's is their own.
    expect(await mine(first, device._id)).toMatchObject({
      circleRole: 'owner',
      deviceName: "Mum's band",
      sharedName: "Mum's band",
      nickname: null,
    });
    expect(await mine(second, device._id)).toMatchObject({
      circleRole: 'carer',
      deviceName: 'Granny',
      sharedName: "Mum's band",
      nickname: 'Granny',
    });
  });

  it('of two people adding an ownerless device at once, exactly one becomes its owner', async () => {
    const [a, b] = await Promise.all([signup(built()), signup(built())]);
    const device = await createDevice(built(), admin);
    const answers = await Promise.all([
      addByCode(a, device.activationCode),
      addByCode(b, device.activationCode),
    ]);
    // The other waits for the owner to confirm them (care circle, issue 26).
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 403]);
    const winner = answers[0]?.statusCode === 200 ? a : b;
    expect((await mine(winner, device._id)).circleRole).toBe('owner');
  });

  it("a carer's rename is their nickname; only the owner renames for everyone", async () => {
    const [owner, carer] = await Promise.all([signup(built()), signup(built())]);
    const device = await ownedDevice(built(), admin, owner);
    await joinByCode(built(), owner, carer, device.activationCode);
    const shared = (await mine(owner, device._id)).deviceName;

    const nick = await asUser(carer, '/update-device', { data: { deviceId: device._id, newName: 'Dad' } });
    expect(nick.statusCode).toBe(200);
    expect(nick.json().data.device).toMatchObject({ deviceName: 'Dad', sharedName: shared, nickname: 'Dad' });
    expect((await mine(owner, device._id)).deviceName).toBe(shared);

    const refused = await asUser(carer, '/update-device', {
      data: { deviceId: device._id, newName: 'Everyone', scope: 'shared' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(DEVICE_MESSAGES.ownerOnly);
    expect((await mine(owner, device._id)).deviceName).toBe(shared);

    const renamed = await asUser(owner, '/update-device', {
      data: { deviceId: device._id, newName: 'Living room band' },
    });
    expect(renamed.statusCode).toBe(200);
    // The carer keeps their nickname and sees the new shared name beside it.
    expect(await mine(carer, device._id)).toMatchObject({
      deviceName: 'Dad',
      sharedName: 'Living room band',
    });
    const all = await built().app.inject({
      method: 'POST',
      url: '/api/v1/admin/all-devices',
      headers: admin.auth,
    });
    expect(all.json().data.devices.find((d: { _id: string }) => d._id === device._id).deviceName).toBe(
      'Living room band',
    );
    // A nickname equal to the shared name is none.
    await asUser(carer, '/update-device', { data: { deviceId: device._id, newName: 'Living room band' } });
    expect((await mine(carer, device._id)).nickname).toBeNull();
  });

  it('alarm settings: a carer reads them (canChange false) and gets 403 on a change; the owner and admins change them', async () => {
    const [owner, carer, stranger] = await Promise.all([signup(built()), signup(built()), signup(built())]);
    const device = await ownedDevice(built(), admin, owner);
    await joinByCode(built(), owner, carer, device.activationCode);
    const read = await asUser(carer, `/alarm-settings/${device._id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().data.canChange).toBe(false);
    const { settings } = read.json().data;
    const tuned = structuredClone(settings);
    tuned.conditions.LOW_SPO2 = { ...tuned.conditions.LOW_SPO2, limit: 88, critical: 85 };

    const refused = await asUser(carer, `/update-alarm-settings/${device._id}`, { settings: tuned });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(DEVICE_MESSAGES.ownerOnly);
    expect((await asUser(owner, `/alarm-settings/${device._id}`)).json().data).toMatchObject({
      canChange: true,
      settings: { conditions: { LOW_SPO2: { limit: 95 } } },
    });
    expect(
      (await asUser(stranger, `/update-alarm-settings/${device._id}`, { settings: tuned })).statusCode,
    ).toBe(404);

    const byOwner = await asUser(owner, `/update-alarm-settings/${device._id}`, { settings: tuned });
    expect(byOwner.statusCode).toBe(200);
    expect(byOwner.json().data.settings.conditions.LOW_SPO2.limit).toBe(88);
    tuned.conditions.LOW_SPO2.limit = 90;
    const byAdmin = await asUser(admin, `/update-alarm-settings/${device._id}`, { settings: tuned });
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json().data).toMatchObject({ canChange: true });
    expect(
      (await asUser(carer, `/alarm-settings/${device._id}`)).json().data.settings.conditions.LOW_SPO2.limit,
    ).toBe(90);
  });

  it("migration 0012 makes each device's earliest-added user its owner", async () => {
    const [early, late, other] = await Promise.all([signup(built()), signup(built()), signup(built())]);
    const device = await createDevice(built(), admin, { users: [late.user._id, early.user._id] });
    const alone = await createDevice(built(), admin, { users: [other.user._id] });
    const { db } = built().ctx;
    const at = (userId: string, deviceId: string, when: string) =>
      db
        .update(deviceUsers)
        .set({ createdAt: new Date(when), circleRole: 'carer' })
        .where(and(eq(deviceUsers.deviceId, deviceId), eq(deviceUsers.userId, userId)));
    await at(early.user._id, device._id, '2026-01-01T00:00:00Z');
    await at(late.user._id, device._id, '2026-02-01T00:00:00Z');
    await at(other.user._id, alone._id, '2026-03-01T00:00:00Z');
    const file = new URL('../src/db/migrations/0012_circle_role.sql', import.meta.url);
    const update = readFileSync(file, 'utf8')
      .split('--> statement-breakpoint')
      .find((s) => s.includes('UPDATE'));
    expect(update).toBeDefined();
    await db.execute(sql.raw(update as string));
    expect((await mine(early, device._id)).circleRole).toBe('owner');
    expect((await mine(late, device._id)).circleRole).toBe('carer');
    expect((await mine(other, alone._id)).circleRole).toBe('owner');
  });
});
