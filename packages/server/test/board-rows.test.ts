import { type BoardSnapshotWire, boardResponse } from '@vitalwatch/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as repo from '../src/modules/board/repository.ts';
import { createDevice, isoFromNow, postAlert, postHealth } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, unique, useTestApp } from './helpers.ts';

/**
 * The board takes its rows as the driver gives them and writes its reply without zod (a build of
 * 1,000 tiles spent most of its JavaScript parsing): what the schemas say is checked here instead,
 * with a value of every kind in each column and each optional part of a tile present.
 */
describe.each(dbTargets())('the board’s rows and reply hold their schemas, on $name', (target) => {
  const built = useTestApp(target, {
    ingest: { offlineSweepIntervalMs: 0, escalationIntervalMs: 0 },
    notifications: { pollMs: 0 },
  });
  let admin: TestUser;
  let carer: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
    carer = await signup(built());
    const post = (url: string, payload: object, as = carer) =>
      built().app.inject({ method: 'POST', url: `/api/v1/${url}`, headers: as.auth, payload });
    const direct = await createDevice(built(), admin, { users: [carer.user._id] });
    const ward = await createDevice(built(), admin, { deviceName: unique('Ward ') });
    await createDevice(built(), admin, { users: [carer.user._id], isValid: false });
    const team = await built().app.inject({
      method: 'POST',
      url: '/api/v1/admin/teams',
      headers: admin.auth,
      payload: {
        name: unique('Night '),
        deviceIds: [ward._id, direct._id],
        members: [{ userId: carer.user._id, role: 'primary' }],
      },
    });
    expect(team.statusCode, team.body).toBe(201);
    // A nickname, limits of its own, readings over the hour (one without SpO2), open alerts, one acknowledged.
    const renamed = await post('device/update-device', {
      data: { deviceId: ward._id, newName: 'Mr "O", room 4' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const defaults = (await post(`device/alarm-settings/${direct._id}`, {}, admin)).json().data.defaults;
    defaults.conditions.HIGH_HEART_RATE = {
      ...defaults.conditions.HIGH_HEART_RATE,
      limit: 110,
      critical: 150,
    };
    const settings = await post(`device/update-alarm-settings/${direct._id}`, { settings: defaults }, admin);
    expect(settings.statusCode, settings.body).toBe(200);
    await postHealth(built(), ward.apiAuthCode, [
      { heartRate: 70, spo2: 97, temperature: 98.1, battery: 64, recordedAt: isoFromNow(-20 * 60_000) },
      { heartRate: 91, temperature: 98.4, battery: 63, recordedAt: isoFromNow(-1000) },
    ]);
    await postHealth(built(), direct.apiAuthCode, {
      heartRate: 121,
      spo2: 99,
      temperature: 98.2,
      battery: 12.5,
      recordedAt: isoFromNow(-2000),
    });
    await postAlert(built(), ward.apiAuthCode, { alertType: 'SOS' });
    await postAlert(built(), direct.apiAuthCode, { alertType: 'FALL_DETECTED' });
    await built().ctx.ingest.drain();
    const open = await built().ctx.alerts.open(carer.user._id, 10);
    const fall = open.find((a) => a.device === direct._id)!;
    const ack = await post(`alert/acknowledge/${fall._id}`, { note: 'On my way' });
    expect(ack.statusCode, ack.body).toBe(200);
  });

  it('each query’s rows are what its schema says, unchanged by parsing', async () => {
    const { db } = built().ctx;
    const { deviceRow, latestRow, sparkRow, teamRow } = repo.boardRowSchemas;
    const devices = await repo.listVisibleDevices(db, carer.user._id);
    expect(devices).toHaveLength(3);
    expect(z.array(deviceRow.strict()).parse(devices)).toEqual(devices);
    const seqs = devices.map((d) => d.seq);
    const latest = await repo.newestReadings(db, seqs);
    expect(latest).toHaveLength(2);
    expect(latest.every((l) => !Number.isNaN(Date.parse(l.recorded_at)))).toBe(true);
    expect(z.array(latestRow.strict()).parse(latest)).toEqual(latest);
    const at = new Date();
    const sparks = await repo.sparklineSlots(
      db,
      seqs.map((seq) => ({ seq, since: new Date(at.getTime() - 3_600_000) })),
      at,
      at,
    );
    expect(sparks.length).toBeGreaterThan(0);
    expect(z.array(sparkRow.strict()).parse(sparks)).toEqual(sparks);
    const teams = await repo.teamsOf(db, carer.user._id);
    expect(z.array(teamRow.strict()).parse(teams)).toEqual(teams);
  });

  it('the reply is what boardResponse makes of it, to the byte, with every optional part of a tile', async () => {
    const res = await built().app.inject({
      method: 'GET',
      url: `/api/v1/board/snapshot?after=${encodeURIComponent(new Date().toISOString())}`,
      headers: { ...carer.auth, 'accept-encoding': 'identity' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(JSON.stringify(boardResponse.parse(JSON.parse(res.body)))).toBe(res.body);
    const tiles = (JSON.parse(res.body) as { data: BoardSnapshotWire }).data.devices;
    const keys = new Set(tiles.flatMap((t) => Object.keys(t)));
    expect([...keys].sort()).toEqual(
      [
        '_id',
        'alerts',
        'deviceName',
        'isValid',
        'latest',
        'limits',
        'noWorkingChannel',
        'sparkline',
        'teamIds',
      ].sort(),
    );
    expect(tiles.flatMap((t) => t.alerts ?? []).some((a) => a.acknowledged?.note === 'On my way')).toBe(true);
  });
});
