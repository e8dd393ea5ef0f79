import type { AlertLifecycle } from '@vitalwatch/shared';
import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { alertEscalations, alerts } from '../src/db/schema.ts';
import type { Audience, EscalationStep } from '../src/lib/events.ts';
import { createDevice, isoFromNow, ownedDevice, postAlert, postHealth } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, useTestApp } from './helpers.ts';

const MINUTE = 60_000;

describe.each(dbTargets())('alert lifecycle and escalation on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0, escalationIntervalMs: 0 } });
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });

  /** Two primary carers and one backup on one device. */
  async function careTeam() {
    const [first, second, backup, stranger] = await Promise.all([
      signup(built()),
      signup(built()),
      signup(built()),
      signup(built()),
    ]);
    const device = await createDevice(built(), admin, {
      users: [first.user._id, second.user._id, backup.user._id],
      backupUsers: [backup.user._id],
    });
    expect(device.backupUsers).toEqual([backup.user._id]);
    return { first, second, backup, stranger, device };
  }

  const storedAlerts = (deviceId: string) =>
    built().ctx.db.select().from(alerts).where(eq(alerts.deviceId, deviceId)).orderBy(asc(alerts.recordedAt));

  const act = (user: TestUser, action: 'acknowledge' | 'resolve', alertId: string, payload: object = {}) =>
    built().app.inject({
      method: 'POST',
      url: `/api/v1/alert/${action}/${alertId}`,
      headers: user.auth,
      payload,
    });

  /** Collect escalation steps emitted while `work` runs. */
  async function stepsDuring(work: () => Promise<void>) {
    const steps: [Audience, EscalationStep][] = [];
    const listener = (a: Audience, s: EscalationStep) => steps.push([a, s]);
    built().ctx.events.on('escalation', listener);
    try {
      await work();
    } finally {
      built().ctx.events.off('escalation', listener);
    }
    return steps;
  }

  it('acknowledge once for everyone: who, when, note; the second carer gets the first one back', async () => {
    const { first, second, stranger, device } = await careTeam();
    await postAlert(built(), device.apiAuthCode, { alertType: 'FALL' });
    const [fall] = await storedAlerts(device._id);
    expect(fall).toMatchObject({ priority: 'high', status: 'active' });

    const lifecycle: AlertLifecycle[][] = [];
    const listener = (_a: Audience, l: AlertLifecycle[]) => lifecycle.push(l);
    built().ctx.events.on('alertLifecycle', listener);
    const res = await act(first, 'acknowledge', fall!.id, { note: "  I'm on my way " });
    built().ctx.events.off('alertLifecycle', listener);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Alert acknowledged',
      data: {
        alert: { status: 'acknowledged', acknowledged: { by: first.user.username, note: "I'm on my way" } },
      },
    });
    expect(lifecycle).toHaveLength(1);
    expect(lifecycle[0]![0]).toMatchObject({ _id: fall!.id, status: 'acknowledged' });

    const again = await act(second, 'acknowledge', fall!.id);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({
      message: 'Alert already acknowledged',
      data: { alert: { acknowledged: { by: first.user.username } } },
    });

    expect((await act(stranger, 'acknowledge', fall!.id)).statusCode).toBe(404);
    expect((await act(admin, 'acknowledge', fall!.id)).statusCode).toBe(404);
    expect((await act(first, 'acknowledge', 'not-an-id')).statusCode).toBe(404);
    const bad = await act(first, 'acknowledge', fall!.id, { note: 'x'.repeat(501) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues[0].path).toBe('note');
    const anonymous = await built().app.inject({
      method: 'POST',
      url: `/api/v1/alert/acknowledge/${fall!.id}`,
    });
    expect(anonymous.statusCode).toBe(401);

    const handled = await act(second, 'resolve', fall!.id, { note: 'Helped him up, no injury' });
    expect(handled.json()).toMatchObject({
      message: 'Alert marked as handled',
      data: {
        alert: {
          status: 'resolved',
          resolved: { by: second.user.username, note: 'Helped him up, no injury' },
        },
      },
    });
    // Every carer's list shows the shared state.
    const list = await built().app.inject({ method: 'POST', url: '/api/v1/alert/all', headers: first.auth });
    expect(list.json().data.alerts[0]).toMatchObject({
      _id: fall!.id,
      priority: 'high',
      status: 'resolved',
      acknowledged: { by: first.user.username },
      resolved: { by: second.user.username },
      isRead: false,
    });
  });

  it('an unacknowledged FALL repeats every 2 min to primaries, reaches the backup at 5 min, stops on acknowledgement', async () => {
    const { first, second, backup, device } = await careTeam();
    const t0 = Date.now();
    await postAlert(built(), device.apiAuthCode, { alertType: 'FALL' });
    const [fall] = await storedAlerts(device._id);
    const engine = built().ctx.alertEngine;
    const at = (minutes: number) => new Date(t0 + minutes * MINUTE + 1000);

    const steps = await stepsDuring(async () => {
      await engine.runEscalations(at(1));
      await engine.runEscalations(at(2));
      await engine.runEscalations(at(2));
      await engine.runEscalations(at(4));
      await engine.runEscalations(at(5));
      await engine.runEscalations(at(6));
    });
    const mine = steps.filter(([, s]) => s.alert._id === fall!.id);
    const primaries = [first.user._id, second.user._id].sort();
    expect(mine.map(([a, s]) => [s.step, a.contactIds.sort()])).toEqual([
      [1, primaries],
      [2, primaries],
      [3, [backup.user._id]],
      [4, [...primaries, backup.user._id].sort()],
    ]);
    expect(mine[0]![1].alert).toMatchObject({ alertType: 'FALL', priority: 'high', status: 'active' });

    expect((await act(backup, 'acknowledge', fall!.id)).statusCode).toBe(200);
    const after = await stepsDuring(async () => {
      await engine.runEscalations(at(8));
      await engine.runEscalations(at(10));
    });
    expect(after.filter(([, s]) => s.alert._id === fall!.id)).toEqual([]);
    expect(
      await built().ctx.db.select().from(alertEscalations).where(eq(alertEscalations.alertId, fall!.id)),
    ).toEqual([]);
  });

  it('with no backup contacts the backup time is no step: the timeline counts 1, 2, 3 without a gap', async () => {
    const carer = await signup(built());
    const device = await createDevice(built(), admin, { users: [carer.user._id] });
    const t0 = Date.now();
    await postAlert(built(), device.apiAuthCode, { alertType: 'FALL' });
    const [fall] = await storedAlerts(device._id);
    const engine = built().ctx.alertEngine;
    const steps = await stepsDuring(async () => {
      for (const m of [2, 4, 5, 6]) await engine.runEscalations(new Date(t0 + m * MINUTE + 1000));
    });
    expect(steps.filter(([, s]) => s.alert._id === fall!.id).map(([, s]) => s.step)).toEqual([1, 2, 3]);
    const res = await built().app.inject({
      method: 'POST',
      url: `/api/v1/alert/timeline/${fall!.id}`,
      headers: carer.auth,
    });
    const escalated = (res.json().data.timeline as { kind: string; detail: string }[])
      .filter((e) => e.kind === 'escalated')
      .map((e) => e.detail.split(':')[0]);
    expect(escalated).toEqual(['Step 1', 'Step 2', 'Step 3']);
  });

  it('repeats for 30 minutes at most, then stops', async () => {
    const { device } = await careTeam();
    const t0 = Date.now();
    await postAlert(built(), device.apiAuthCode, { alertType: 'SOS' });
    const [sos] = await storedAlerts(device._id);
    const steps = await stepsDuring(async () => {
      for (let m = 1; m <= 40; m++)
        await built().ctx.alertEngine.runEscalations(new Date(t0 + m * MINUTE + 1000));
    });
    // 15 repeats (2, 4, … 30 min) and the backup step at 5 min.
    expect(steps.filter(([, s]) => s.alert._id === sos!.id)).toHaveLength(16);
  });

  it('a critical vital escalates; a medium one does not; an episode ending resolves and stops it', async () => {
    const { device } = await careTeam();
    await postHealth(built(), device.apiAuthCode, [
      { spo2: 93, recordedAt: isoFromNow(-100_000) },
      { spo2: 93, recordedAt: isoFromNow(-60_000) },
      { heartRate: 35, recordedAt: isoFromNow(-50_000) },
    ]);
    const raised = await storedAlerts(device._id);
    expect(raised.map((a) => [a.alertType, a.priority])).toEqual([
      ['LOW_SPO2', 'medium'],
      ['LOW_HEART_RATE', 'high'],
    ]);
    const jobs = await built().ctx.db.select().from(alertEscalations);
    expect(jobs.map((j) => j.alertId)).toContain(raised[1]!.id);
    expect(jobs.map((j) => j.alertId)).not.toContain(raised[0]!.id);

    await postHealth(built(), device.apiAuthCode, [
      { heartRate: 70, recordedAt: isoFromNow(-40_000) },
      { heartRate: 70, recordedAt: isoFromNow(-5_000) },
    ]);
    expect((await storedAlerts(device._id)).find((a) => a.id === raised[1]!.id)?.status).toBe('resolved');
    const steps = await stepsDuring(() =>
      built()
        .ctx.alertEngine.runEscalations(new Date(Date.now() + 3 * MINUTE))
        .then(() => {}),
    );
    expect(steps.filter(([, s]) => s.alert._id === raised[1]!.id)).toEqual([]);
  });

  it('lists alerts by priority when asked (high, medium, low, each newest first), paging without gaps', async () => {
    const { first, device } = await careTeam();
    const at = (m: number) => isoFromNow(-m * 60_000);
    await postAlert(built(), device.apiAuthCode, [
      { alertType: 'BATTERY', recordedAt: at(1) },
      { alertType: 'DOOR_OPEN', recordedAt: at(2) },
      { alertType: 'FALL', recordedAt: at(5) },
      { alertType: 'BATTERY', recordedAt: at(3) },
      { alertType: 'SOS', recordedAt: at(4) },
    ]);
    const page = async (cursor?: string) =>
      (
        await built().app.inject({
          method: 'POST',
          url: '/api/v1/alert/all',
          headers: first.auth,
          payload: { deviceId: device._id, sort: 'priority', limit: 2, ...(cursor ? { cursor } : {}) },
        })
      ).json().data;
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const p = await page(cursor);
      seen.push(
        ...p.alerts.map((a: { alertType: string; priority: string }) => `${a.priority}:${a.alertType}`),
      );
      cursor = p.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(['high:SOS', 'high:FALL', 'medium:DOOR_OPEN', 'low:BATTERY', 'low:BATTERY']);
    // A cursor of one order is refused by the other.
    const recent = await built().app.inject({
      method: 'POST',
      url: '/api/v1/alert/all',
      headers: first.auth,
      payload: { deviceId: device._id, limit: 2 },
    });
    const mixed = await built().app.inject({
      method: 'POST',
      url: '/api/v1/alert/all',
      headers: first.auth,
      payload: { deviceId: device._id, sort: 'priority', cursor: recent.json().data.nextCursor },
    });
    expect(mixed.statusCode).toBe(400);
  });

  describe('alarm settings', () => {
    const settingsOf = (user: TestUser, deviceId: string) =>
      built().app.inject({
        method: 'POST',
        url: `/api/v1/device/alarm-settings/${deviceId}`,
        headers: user.auth,
      });
    const update = (user: TestUser, deviceId: string, settings: unknown) =>
      built().app.inject({
        method: 'POST',
        url: `/api/v1/device/update-alarm-settings/${deviceId}`,
        headers: user.auth,
        payload: { settings },
      });

    it("shows the defaults; the device's owner and admins change them within safe bounds; others get 404", async () => {
      const [first, stranger] = await Promise.all([signup(built()), signup(built())]);
      const device = await ownedDevice(built(), admin, first);
      const res = await settingsOf(first, device._id);
      expect(res.statusCode).toBe(200);
      const { settings, defaults } = res.json().data;
      expect(settings).toEqual(defaults);
      expect(settings.conditions.LOW_SPO2).toEqual({
        limit: 95,
        critical: 91,
        delaySeconds: 30,
        clearMargin: 1,
        clearSeconds: 30,
      });

      // A COPD patient whose usual SpO2 is 90–92 %.
      const tuned = structuredClone(settings);
      tuned.conditions.LOW_SPO2 = { ...tuned.conditions.LOW_SPO2, limit: 88, critical: 85 };
      const ok = await update(first, device._id, tuned);
      expect(ok.statusCode).toBe(200);
      expect(ok.json().data.settings.conditions.LOW_SPO2.limit).toBe(88);
      expect((await settingsOf(admin, device._id)).json().data.settings.conditions.LOW_SPO2.limit).toBe(88);
      await postHealth(built(), device.apiAuthCode, [
        { spo2: 90, recordedAt: isoFromNow(-120_000) },
        { spo2: 90, recordedAt: isoFromNow(-1000) },
      ]);
      expect(await storedAlerts(device._id)).toEqual([]);

      const unsafe = structuredClone(settings);
      unsafe.conditions.LOW_SPO2 = { ...unsafe.conditions.LOW_SPO2, limit: 60, delaySeconds: 3600 };
      unsafe.conditions.HIGH_HEART_RATE.critical = 95;
      const refused = await update(admin, device._id, unsafe);
      expect(refused.statusCode).toBe(400);
      const paths = new Set(refused.json().issues.map((i: { path: string }) => i.path));
      expect([...paths].sort()).toEqual([
        'settings.conditions.HIGH_HEART_RATE.critical',
        'settings.conditions.LOW_SPO2.critical',
        'settings.conditions.LOW_SPO2.delaySeconds',
        'settings.conditions.LOW_SPO2.limit',
      ]);
      expect((await settingsOf(stranger, device._id)).statusCode).toBe(404);
      expect((await update(stranger, device._id, settings)).statusCode).toBe(404);
    });
  });
});
