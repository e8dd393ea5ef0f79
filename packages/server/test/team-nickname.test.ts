import type { BoardSnapshot, Team, UserDevice } from '@vitalwatch/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, unique, useTestApp } from './helpers.ts';

/** Issue 25: a carer names a device they see through a care team only, for themselves alone. */
describe.each(dbTargets())('a nickname for a device seen through a team on $name', (target) => {
  const built = useTestApp(target);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });

  const post = (user: TestUser, url: string, payload?: object) =>
    built().app.inject({ method: 'POST', url: `/api/v1/device/${url}`, headers: user.auth, payload });
  const nameOn = async (user: TestUser, deviceId: string) => {
    const details = await post(user, 'device-details', { data: { deviceId } });
    expect(details.statusCode, details.body).toBe(200);
    const board = await built().app.inject({
      method: 'GET',
      // As a board opening now asks: built after the change just made (a young build is reused otherwise).
      url: `/api/v1/board/snapshot?after=${encodeURIComponent(new Date().toISOString())}`,
      headers: user.auth,
    });
    const tile = (board.json().data as BoardSnapshot).devices.find((d) => d._id === deviceId);
    const mine = (await post(user, 'get-device', {})).json().data.devices as UserDevice[];
    const listed = mine.find((d) => d._id === deviceId);
    // The list (written by the database) shows what the details show, the name as the board does.
    expect(listed).toEqual(details.json().data.device);
    return { details: details.json().data.device.deviceName as string, board: tile?.deviceName };
  };

  it("keeps the carer's own name, shows it to them alone, and clears it again", async () => {
    const [nurse, other] = [await signup(built()), await signup(built())];
    const device = await createDevice(built(), admin, { deviceName: unique('Band ') });
    const res = await built().app.inject({
      method: 'POST',
      url: '/api/v1/admin/teams',
      headers: admin.auth,
      payload: {
        name: unique('Ward '),
        deviceIds: [device._id],
        members: [
          { userId: nurse.user._id, role: 'primary' },
          { userId: other.user._id, role: 'primary' },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect((res.json().data.team as Team).deviceIds).toEqual([device._id]);

    const renamed = await post(nurse, 'update-device', {
      data: { deviceId: device._id, newName: 'Mr Okafor, room 4' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await nameOn(nurse, device._id)).toEqual({
      details: 'Mr Okafor, room 4',
      board: 'Mr Okafor, room 4',
    });
    expect(await nameOn(other, device._id)).toEqual({ details: device.deviceName, board: device.deviceName });
    // Still not assigned: the admin's device shows no user.
    const devices = await built().app.inject({
      method: 'POST',
      url: '/api/v1/admin/all-devices',
      headers: admin.auth,
    });
    const listed = (devices.json().data.devices as { _id: string; users: string[] }[]).find(
      (d) => d._id === device._id,
    );
    expect(listed?.users).toEqual([]);

    await post(nurse, 'update-device', { data: { deviceId: device._id, newName: device.deviceName } });
    expect(await nameOn(nurse, device._id)).toEqual({ details: device.deviceName, board: device.deviceName });
  });
});
