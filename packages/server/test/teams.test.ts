import {
  DEVICE_MESSAGES,
  type HealthRecord,
  TEAM_MESSAGES,
  type Team,
  userDevice,
  userDevicesResponse,
} from '@vitalwatch/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Audience, EscalationStep } from '../src/lib/events.ts';
import { createDevice, postAlert, postHealth } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, unique, useTestApp } from './helpers.ts';
import { recordEvents, useSockets } from './realtime-helpers.ts';

const MINUTE = 60_000;

/**
 * Issue 25, point 1: care teams. A team's user sees each of its devices as if assigned to it, with
 * the same alert routing (primary / backup), and loses it at once on leaving, open sockets included.
 */
describe.each(dbTargets())('care teams on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0, escalationIntervalMs: 0 } });
  const connect = useSockets(built);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });

  const teamsApi = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path = '', payload?: object, as = admin) =>
    built().app.inject({ method, url: `/api/v1/admin/teams${path}`, headers: as.auth, payload });
  const createTeam = async (body: object): Promise<Team> => {
    const res = await teamsApi('POST', '', { name: unique('Ward '), ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.team;
  };
  const deviceIdsOf = async (user: TestUser) => {
    const res = await built().app.inject({
      method: 'POST',
      url: '/api/v1/device/get-device',
      headers: user.auth,
    });
    return (res.json().data.devices as { _id: string }[]).map((d) => d._id);
  };
  const fetchHealth = (user: TestUser, deviceId: string) =>
    built().app.inject({ method: 'POST', url: `/api/v1/health/fetch/${deviceId}`, headers: user.auth });
  const reading = (heartRate = 72) => ({ heartRate, spo2: 97, temperature: 98.2, battery: 80 });

  it('creates, lists, renames, changes and deletes a team; each change is audit-logged', async () => {
    const [nurse, backup] = await Promise.all([signup(built()), signup(built())]);
    const device = await createDevice(built(), admin);
    const name = unique('North round ');
    const created = await teamsApi('POST', '', {
      name,
      deviceIds: [device._id],
      members: [{ userId: nurse.user._id, role: 'primary' }],
    });
    expect(created.statusCode).toBe(201);
    const team: Team = created.json().data.team;
    expect(team).toMatchObject({
      name,
      deviceIds: [device._id],
      members: [{ userId: nurse.user._id, role: 'primary' }],
    });

    const listed = (await teamsApi('GET')).json().data.teams as Team[];
    expect(listed.find((t) => t._id === team._id)).toEqual(team);

    const renamed = await teamsApi('PATCH', `/${team._id}`, {
      name: `${name} nights`,
      members: [
        { userId: nurse.user._id, role: 'primary' },
        { userId: backup.user._id, role: 'backup' },
      ],
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().data.team).toMatchObject({ name: `${name} nights`, deviceIds: [device._id] });
    expect(renamed.json().data.team.members).toHaveLength(2);

    expect((await teamsApi('DELETE', `/${team._id}`)).statusCode).toBe(200);
    expect((await teamsApi('DELETE', `/${team._id}`)).statusCode).toBe(404);

    const audit = await built().app.inject({
      method: 'GET',
      url: `/api/v1/admin/audit?targetId=${team._id}`,
      headers: admin.auth,
    });
    const actions = (audit.json().data.entries as { action: string }[]).map((e) => e.action).reverse();
    expect(actions).toEqual([
      'team-create',
      'team-devices',
      'team-members',
      'team-rename',
      'team-members',
      'team-delete',
    ]);
  });

  it('answers 400 per field, 409 for a taken name, 401 and 403 for the wrong caller, 404 for no team', async () => {
    const [user, otherAdmin] = await Promise.all([signup(built()), createAdmin(built())]);
    const empty = await teamsApi('POST', '', {
      name: '  ',
      members: [{ userId: user.user._id, role: 'boss' }],
    });
    expect(empty.statusCode).toBe(400);
    expect(
      empty
        .json()
        .issues.map((i: { path: string }) => i.path)
        .sort(),
    ).toEqual(['members.0.role', 'name']);

    const unknown = await teamsApi('POST', '', { name: unique('T'), deviceIds: ['nope'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().issues[0]).toEqual({
      path: 'deviceIds.0',
      message: `${TEAM_MESSAGES.unknownDevice}: nope`,
    });
    const anAdmin = await teamsApi('POST', '', {
      name: unique('T'),
      members: [{ userId: otherAdmin.user._id, role: 'primary' }],
    });
    expect(anAdmin.json().issues[0]).toEqual({ path: 'members.0.userId', message: TEAM_MESSAGES.notAUser });

    const team = await createTeam({});
    const taken = await teamsApi('POST', '', { name: team.name });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().issues[0].path).toBe('name');

    expect((await built().app.inject({ method: 'GET', url: '/api/v1/admin/teams' })).statusCode).toBe(401);
    expect((await teamsApi('GET', '', undefined, user)).statusCode).toBe(403);
    expect((await teamsApi('PATCH', `/${crypto.randomUUID()}`, { name: 'x' })).statusCode).toBe(404);
    expect((await teamsApi('PATCH', '/not-an-id', { name: 'x' })).statusCode).toBe(404);
  });

  it("writes the device list as each device's details show it, assigned ones first, then the team's by name", async () => {
    const nurse = await signup(built());
    const tag = unique('List ');
    const assigned = await createDevice(built(), admin, {
      users: [nurse.user._id],
      deviceName: `${tag} zeta`,
    });
    const [bed, chair] = await Promise.all([
      createDevice(built(), admin, { deviceName: `${tag} bed` }),
      createDevice(built(), admin, { deviceName: `${tag} chair` }),
    ]);
    await createTeam({
      deviceIds: [chair._id, bed._id],
      members: [{ userId: nurse.user._id, role: 'primary' }],
    });
    // A team's device named for oneself (a nickname with quotes, a backslash and emoji), and one reporting.
    const renamed = await built().app.inject({
      method: 'POST',
      url: '/api/v1/device/update-device',
      headers: nurse.auth,
      payload: { data: { deviceId: chair._id, newName: 'Ward "3" \\ 🩺' } },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await postHealth(built(), assigned.apiAuthCode, reading())).statusCode).toBeLessThan(300);

    const res = await built().app.inject({
      method: 'POST',
      url: '/api/v1/device/get-device',
      headers: nurse.auth,
    });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const list = userDevicesResponse
      .extend({ data: z.object({ devices: z.array(userDevice.strict()) }).strict() })
      .strict()
      .parse(res.json());
    expect(list.message).toBe(DEVICE_MESSAGES.fetched);
    expect(list.data.devices.map((d) => d._id)).toEqual([assigned._id, bed._id, chair._id]);
    for (const device of list.data.devices)
      expect(device).toEqual(await built().ctx.devices.details(nurse.user._id, device._id));
    expect(list.data.devices[2]).toMatchObject({ deviceName: 'Ward "3" \\ 🩺', nickname: 'Ward "3" \\ 🩺' });
    expect(list.data.devices[0]?.lastUpdate).not.toBeNull();
  });

  it("a team's user sees its devices while a member, and not one request or socket event after leaving", async () => {
    const [nurse, stranger] = await Promise.all([signup(built()), signup(built())]);
    const device = await createDevice(built(), admin);
    expect(await deviceIdsOf(nurse)).toEqual([]);
    expect((await fetchHealth(nurse, device._id)).statusCode).toBe(404);

    const team = await createTeam({
      deviceIds: [device._id],
      members: [{ userId: nurse.user._id, role: 'primary' }],
    });
    expect(await deviceIdsOf(nurse)).toEqual([device._id]);
    expect((await fetchHealth(nurse, device._id)).statusCode).toBe(200);
    expect((await fetchHealth(stranger, device._id)).statusCode).toBe(404);

    const socket = await connect({ token: nurse.accessToken });
    const health = recordEvents(socket, 'healthDataUpdate');
    expect((await postHealth(built(), device.apiAuthCode, reading(71))).statusCode).toBe(202);
    const [first] = await health.waitFor(1);
    expect((first as HealthRecord).heartRate).toBe(71);

    // Leaving the team: the same open socket gets nothing more of the device.
    expect((await teamsApi('PATCH', `/${team._id}`, { members: [] })).statusCode).toBe(200);
    expect(await deviceIdsOf(nurse)).toEqual([]);
    expect((await fetchHealth(nurse, device._id)).statusCode).toBe(404);
    // A marker on a device still assigned shows the socket is live and events arrive in order.
    const own = await createDevice(built(), admin, { users: [nurse.user._id] });
    expect((await postHealth(built(), device.apiAuthCode, reading(99))).statusCode).toBe(202);
    await built().ctx.ingest.drain();
    expect((await postHealth(built(), own.apiAuthCode, reading(60))).statusCode).toBe(202);
    const after = await health.waitFor(2);
    expect(after.map((r) => (r as HealthRecord).heartRate)).toEqual([71, 60]);

    // Deleting a team, or taking the device out of it, revokes in the same way.
    const again = await createTeam({
      deviceIds: [device._id],
      members: [{ userId: nurse.user._id, role: 'primary' }],
    });
    expect((await fetchHealth(nurse, device._id)).statusCode).toBe(200);
    expect((await teamsApi('PATCH', `/${again._id}`, { deviceIds: [] })).statusCode).toBe(200);
    expect((await fetchHealth(nurse, device._id)).statusCode).toBe(404);
  });

  it("a team's primary is notified like a direct assignee; its backup hears of an escalation at the backup step", async () => {
    const [direct, teamPrimary, teamBackup, both] = await Promise.all([
      signup(built()),
      signup(built()),
      signup(built()),
      signup(built()),
    ]);
    const device = await createDevice(built(), admin, {
      users: [direct.user._id, both.user._id],
      backupUsers: [both.user._id],
    });
    await createTeam({
      deviceIds: [device._id],
      members: [
        { userId: teamPrimary.user._id, role: 'primary' },
        { userId: teamBackup.user._id, role: 'backup' },
        // A backup by assignment but a primary through the team is a primary.
        { userId: both.user._id, role: 'primary' },
      ],
    });
    const audiences: Audience[] = [];
    const onAlerts = (a: Audience) => audiences.push(a);
    built().ctx.events.on('alerts', onAlerts);
    const t0 = Date.now();
    await postAlert(built(), device.apiAuthCode, { alertType: 'FALL' });
    built().ctx.events.off('alerts', onAlerts);
    const primaries = [direct.user._id, teamPrimary.user._id, both.user._id].sort();
    expect(audiences).toHaveLength(1);
    expect([...audiences[0]!.contactIds].sort()).toEqual(primaries);
    expect([...audiences[0]!.userIds].sort()).toEqual([...primaries, teamBackup.user._id].sort());

    const steps: [Audience, EscalationStep][] = [];
    const onStep = (a: Audience, s: EscalationStep) => steps.push([a, s]);
    built().ctx.events.on('escalation', onStep);
    for (const m of [2, 4, 5]) await built().ctx.alertEngine.runEscalations(new Date(t0 + m * MINUTE + 1000));
    built().ctx.events.off('escalation', onStep);
    const mine = steps.filter(([a]) => a.deviceId === device._id);
    expect(mine.map(([a, s]) => [s.step, [...a.contactIds].sort()])).toEqual([
      [1, primaries],
      [2, primaries],
      [3, [teamBackup.user._id]],
    ]);

    // The team's backup may act on the alert like any carer.
    const alertId = mine[0]![1].alert._id;
    const ack = await built().app.inject({
      method: 'POST',
      url: `/api/v1/alert/acknowledge/${alertId}`,
      headers: teamBackup.auth,
    });
    expect(ack.statusCode).toBe(200);
  });
});
