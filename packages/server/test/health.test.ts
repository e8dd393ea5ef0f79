import { contracts } from '@vitalwatch/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CheckedReply, contractClient, dataOf, issuesOf, type LooseInput } from './contract-client.ts';
import { isoFromNow } from './device-helpers.ts';
import { factories } from './factories.ts';
import { dbTargets, type TestUser, useTestApp } from './helpers.ts';

describe.each(dbTargets())('health API on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  const make = factories(built);
  let admin: TestUser;
  let owner: TestUser;
  let deviceId: string;
  /** 150 readings, one a minute, the newest a minute ago; heartRate = its age in minutes. */
  const times = Array.from({ length: 150 }, (_, i) => isoFromNow(-(i + 1) * 60_000));

  beforeAll(async () => {
    admin = await make.admin();
    const made = await make.userWithDevice();
    owner = made.user;
    deviceId = made.device._id;
    await make.readings(
      made.device,
      times.map((recordedAt, i) => ({ recordedAt, heartRate: i + 1, spo2: 97 })),
    );
  });

  const fetch = (user: TestUser | undefined, id: string, body?: LooseInput['body']) =>
    contractClient(built(), user).callLoose(contracts.health.fetch, { params: { deviceId: id }, body });
  const records = (reply: CheckedReply<typeof contracts.health.fetch>) => dataOf(reply).data.healthData;

  it('without a body returns the newest 100, newest first', async () => {
    const res = await fetch(owner, deviceId);
    expect(res.statusCode).toBe(200);
    const data = records(res);
    expect(data).toHaveLength(100);
    expect(data.map((r) => r.createdAt)).toEqual(times.slice(0, 100));
    expect(data[0]).toEqual({
      _id: expect.any(String),
      device: deviceId,
      spo2: 97,
      heartRate: 1,
      temperature: null,
      battery: null,
      createdAt: times[0],
    });
  });

  it('honours limit and an inclusive from/to range', async () => {
    expect(records(await fetch(owner, deviceId, { limit: 1000 }))).toHaveLength(150);
    expect(records(await fetch(owner, deviceId, { limit: 5 })).map((r) => r.heartRate)).toEqual([
      1, 2, 3, 4, 5,
    ]);
    const ranged = records(await fetch(owner, deviceId, { from: times[20], to: times[10] }));
    expect(ranged.map((r) => r.heartRate)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]);
    expect(records(await fetch(owner, deviceId, { from: isoFromNow(0) }))).toEqual([]);
  });

  it('answers 400 with field issues for a bad body', async () => {
    const zero = await fetch(owner, deviceId, { limit: 0 });
    expect(zero.statusCode).toBe(400);
    expect(issuesOf(zero)).toEqual([{ path: 'limit', message: 'limit must be at least 1' }]);
    expect(issuesOf(await fetch(owner, deviceId, { limit: 10_001 }))[0]?.message).toBe(
      'limit must be at most 10000',
    );
    expect(issuesOf(await fetch(owner, deviceId, { from: 'monday' }))[0]?.path).toBe('from');
    const reversed = await fetch(owner, deviceId, { from: times[0], to: times[5] });
    expect(issuesOf(reversed)).toEqual([{ path: 'to', message: 'to must not be before from' }]);
  });

  it("answers 404 'Health data not found' for a device the caller may not see", async () => {
    const stranger = await make.user();
    for (const [user, id] of [
      [stranger, deviceId],
      [admin, deviceId],
      [owner, 'not-a-uuid'],
      [owner, (await make.device())._id],
    ] as const) {
      const res = await fetch(user, id);
      expect(res.statusCode).toBe(404);
      expect(res.body.message).toBe('Health data not found');
    }
  });

  it('answers 401 without a token', async () => {
    expect((await fetch(undefined, deviceId)).statusCode).toBe(401);
  });
});
