import { alertsResponse } from '@vitalwatch/shared';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import webpush from 'web-push';
import type { BuiltApp } from '../src/app.ts';
import { createDevice, postAlert } from './device-helpers.ts';
import { createAdmin, dbTargets, type TestUser, useTestApp, verifyEmail } from './helpers.ts';
import { PEER_ENDPOINTS, usePushPeer, userWithBrowsers } from './push-fixtures.ts';
import { type Subscriber, selfSignedCert, verifyVapid } from './push-peer.ts';
import { connectSocket, listenOnce, recordEvents } from './realtime-helpers.ts';

const identity = selfSignedCert();
const vapid = { ...webpush.generateVAPIDKeys(), subject: 'mailto:push-test@vitalwatch.test' };

/** The real flow: the admin adds a device, the user activates it with its code, the browser is connected. */
async function watcherOfNewDevice(built: BuiltApp, admin: TestUser, browser: Subscriber) {
  const device = await createDevice(built, admin);
  const user = await userWithBrowsers(built, browser);
  const res = await built.app.inject({
    method: 'POST',
    url: '/api/v1/device/add-device',
    headers: user.auth,
    payload: { data: { activationCode: device.activationCode } },
  });
  expect(res.statusCode).toBe(200);
  return { user, device };
}

const timeout = (ms: number) => new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), ms).unref());

describe.each(dbTargets())('an ingested SOS reaches the browser by Web Push on $name', (target) => {
  const built = useTestApp(target, { vapid, ...PEER_ENDPOINTS }, { push: { ca: identity.cert } });
  const peer = usePushPeer(identity);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });

  it('the peer decrypts the stored alert: title, message, device tag and the alerts page', async () => {
    const browser = peer().subscriber();
    const { user, device } = await watcherOfNewDevice(built(), admin, browser);
    const delivered = peer().delivered(browser.endpoint);
    const res = await postAlert(built(), device.apiAuthCode, { alertType: 'SOS' });
    expect(res.statusCode).toBe(202);
    const request = await delivered;

    const latest = await built().app.inject({
      method: 'POST',
      url: '/api/v1/alert/latest/1',
      headers: user.auth,
    });
    const [stored] = alertsResponse.parse(latest.json()).data.alerts;
    expect(stored).toMatchObject({ device: device._id, alertType: 'SOS' });
    expect(JSON.parse(browser.decrypt(request.body))).toEqual({
      title: stored?.alertTitle,
      body: stored?.alertMessage,
      tag: `${device._id}:SOS`,
      url: '/dashboard/alerts',
      alertId: stored?._id,
      priority: 'high',
      ackToken: expect.any(String),
      notificationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      receiptToken: expect.any(String),
    });
    expect(request.headers.urgency).toBe('high');
    expect(verifyVapid(request.headers.authorization, vapid.publicKey).aud).toBe(peer().origin);
  });

  it("the notification's token acknowledges that one alert as its user, without signing in", async () => {
    const browser = peer().subscriber();
    const { user, device } = await watcherOfNewDevice(built(), admin, browser);
    const delivered = peer().delivered(browser.endpoint);
    await postAlert(built(), device.apiAuthCode, { alertType: 'FALL' });
    const { ackToken, alertId } = JSON.parse(browser.decrypt((await delivered).body));
    const byToken = (token: string) =>
      built().app.inject({ method: 'POST', url: '/api/v1/alert/acknowledge-by-token', payload: { token } });

    for (const forged of [user.accessToken, `${ackToken.slice(0, -4)}AAAA`, 'not-a-token']) {
      const refused = await byToken(forged);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().message).toBe('This link has expired or is not valid');
    }
    const res = await byToken(ackToken);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.alert).toMatchObject({
      _id: alertId,
      status: 'acknowledged',
      acknowledged: { by: user.user.username },
    });
    expect((await byToken(ackToken)).json().message).toBe('Alert already acknowledged');
    // The token does nothing else: the user's other alerts and the API stay closed to it.
    const other = await built().app.inject({
      method: 'POST',
      url: '/api/v1/alert/latest/1',
      headers: { authorization: `Bearer ${ackToken}` },
    });
    expect(other.statusCode).toBe(401);

    // A token issued before the user's sessions ended (new password) is void, like their logins.
    const second = peer().delivered(browser.endpoint);
    await postAlert(built(), device.apiAuthCode, { alertType: 'SOS' });
    const { ackToken: beforeChange } = JSON.parse(browser.decrypt((await second).body));
    const changed = await built().app.inject({
      method: 'POST',
      url: '/api/v1/user/change-password',
      headers: user.auth,
      payload: { oldPassword: user.password, newPassword: 'Another-Passw0rd' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await byToken(beforeChange)).statusCode).toBe(401);
  });

  it('the alert timeline: raised, each push and whether it arrived, escalated, acknowledged, resolved', async () => {
    const browser = peer().subscriber();
    const gone = peer().subscriber();
    const { user, device } = await watcherOfNewDevice(built(), admin, browser);
    await verifyEmail(built(), user);
    await built().app.inject({
      method: 'POST',
      url: '/api/v1/user/save-fcm-token',
      headers: user.auth,
      payload: { fcmToken: gone.toJSON() },
    });
    peer().script(gone.endpoint, { status: 410 });
    const t0 = Date.now();
    await postAlert(built(), device.apiAuthCode, { alertType: 'FALL' });
    await built().ctx.outbox.idle();
    const { _id: alertId } = (
      await built().app.inject({ method: 'POST', url: '/api/v1/alert/latest/1', headers: user.auth })
    ).json().data.alerts[0];
    await built().ctx.alertEngine.runEscalations(new Date(t0 + 2 * 60_000 + 5000));
    const timelineOf = () =>
      built().app.inject({ method: 'POST', url: `/api/v1/alert/timeline/${alertId}`, headers: user.auth });
    // The repeat's push and e-mail, recorded once sent.
    await built().ctx.outbox.idle();
    await vi.waitFor(async () => expect((await timelineOf()).json().data.timeline).toHaveLength(6));
    const act = (action: string, note?: string) =>
      built().app.inject({
        method: 'POST',
        url: `/api/v1/alert/${action}/${alertId}`,
        headers: user.auth,
        payload: note ? { note } : {},
      });
    await act('acknowledge', 'Calling him now');
    await act('resolve', 'He is fine');

    const res = await timelineOf();
    expect(res.statusCode).toBe(200);
    const name = user.user.username;
    const timeline: Record<string, unknown>[] = res.json().data.timeline;
    const row = (e: Record<string, unknown>) => [e.kind, e.by, e.channel, e.ok, e.detail];
    // Sends to two browsers (and by e-mail) run side by side: their order within a step is free.
    const sorted = (rows: Record<string, unknown>[]) =>
      rows.map(row).sort((a, b) => String(a).localeCompare(String(b)));
    const steps = [0, 1, 3, 4, 6].map((from, i, all) => timeline.slice(from, all[i + 1]));
    expect(steps.map(sorted)).toEqual([
      [['raised', null, null, null, 'Fall detected (high priority)']],
      sorted([
        { kind: 'notified', by: name, channel: 'push', ok: true, detail: null },
        { kind: 'notified', by: name, channel: 'push', ok: false, detail: 'browser unsubscribed' },
      ]),
      [['escalated', null, null, null, 'Step 1: not acknowledged, sent again']],
      // The repeat goes by e-mail too, opted in or not; the unsubscribed browser is gone.
      sorted([
        { kind: 'notified', by: name, channel: 'email', ok: true, detail: null },
        { kind: 'notified', by: name, channel: 'push', ok: true, detail: null },
      ]),
      [
        ['acknowledged', name, null, null, 'Calling him now'],
        ['resolved', name, null, null, 'He is fine'],
      ],
    ]);
    const stranger = await userWithBrowsers(built());
    const hidden = await built().app.inject({
      method: 'POST',
      url: `/api/v1/alert/timeline/${alertId}`,
      headers: stranger.auth,
    });
    expect(hidden.statusCode).toBe(404);
  });

  it('a push service that does not answer delays neither ingestion nor socket delivery', async () => {
    const browser = peer().subscriber();
    const { user, device } = await watcherOfNewDevice(built(), admin, browser);
    let release = () => {};
    peer().script(browser.endpoint, { status: 201, hold: new Promise<void>((r) => (release = r)) });
    const socket = await connectSocket(await listenOnce(built()), { token: user.accessToken });
    try {
      const alerts = recordEvents(socket, 'alertsUpdate');
      const delivered = peer().delivered(browser.endpoint);

      const answer = await Promise.race([
        postAlert(built(), device.apiAuthCode, { alertType: 'SOS' }),
        timeout(5000),
      ]);
      expect(answer === 'timeout' ? answer : answer.statusCode).toBe(202);
      const [update] = await alerts.waitFor(1);
      expect(update?.[0]).toMatchObject({ device: device._id, alertType: 'SOS' });
      await expect.poll(() => peer().requestsTo(browser.endpoint).length).toBe(1);

      release();
      const request = await delivered;
      expect(JSON.parse(browser.decrypt(request.body)).tag).toBe(`${device._id}:SOS`);
    } finally {
      release();
      socket.close();
    }
  });
});
