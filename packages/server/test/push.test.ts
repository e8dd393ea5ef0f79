import { randomUUID } from 'node:crypto';
import type { AlertRecord } from '@vitalwatch/shared';
import { describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { dbTargets, type TestUser, useTestApp } from './helpers.ts';
import {
  alertRecord,
  browsersOf,
  PEER_ENDPOINTS,
  queueAlerts,
  usePushPeer,
  userWithBrowsers,
} from './push-fixtures.ts';
import { selfSignedCert, verifyVapid } from './push-peer.ts';

const identity = selfSignedCert();
const vapid = { ...webpush.generateVAPIDKeys(), subject: 'mailto:push-test@vitalwatch.test' };

describe.each(dbTargets())('Web Push delivery on $name', (target) => {
  const built = useTestApp(
    target,
    { vapid, ...PEER_ENDPOINTS },
    { push: { ca: identity.cert, baseDelayMs: 20, maxDelayMs: 2_000 } },
  );
  const peer = usePushPeer(identity);
  const sendTo = (users: TestUser[], alerts: AlertRecord[]) =>
    queueAlerts(
      built(),
      users.map((u) => u.user._id),
      alerts,
    );

  it('serves the VAPID public key', async () => {
    const res = await built().app.inject({ method: 'GET', url: '/api/v1/push/public-key' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ publicKey: vapid.publicKey });
  });

  it('sends an encrypted alert with TTL, high urgency and a valid VAPID signature', async () => {
    const browser = peer().subscriber();
    const user = await userWithBrowsers(built(), browser);
    const deviceId = randomUUID();
    const alert = alertRecord(deviceId, 'SOS', {
      alertTitle: 'SOS Alert',
      alertMessage: 'SOS button pressed',
    });
    const delivered = peer().delivered(browser.endpoint);
    await sendTo([user], [alert]);
    const request = await delivered;

    expect(JSON.parse(browser.decrypt(request.body))).toEqual({
      title: 'SOS Alert',
      body: 'SOS button pressed',
      tag: `${deviceId}:SOS`,
      url: '/dashboard/alerts',
      alertId: alert._id,
      priority: 'high',
      ackToken: expect.any(String),
      notificationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      receiptToken: expect.any(String),
    });
    expect(request.headers).toMatchObject({ ttl: '3600', urgency: 'high', 'content-encoding': 'aes128gcm' });
    const claims = verifyVapid(request.headers.authorization, vapid.publicKey);
    const now = Math.floor(Date.now() / 1000);
    expect(claims.aud).toBe(peer().origin);
    expect(claims.sub).toBe(vapid.subject);
    expect(claims.exp).toBeGreaterThan(now);
    expect(claims.exp).toBeLessThanOrEqual(now + 24 * 3600);

    await built().ctx.outbox.idle();
    const [saved] = await browsersOf(built(), user);
    expect(saved?.lastSuccessAt).not.toBeNull();
  });

  it('rejects a tampered message: the peer really decrypts', async () => {
    const browser = peer().subscriber();
    const user = await userWithBrowsers(built(), browser);
    const delivered = peer().delivered(browser.endpoint);
    await sendTo([user], [alertRecord(randomUUID(), 'FALL')]);
    const { body } = await delivered;
    const tampered = Buffer.from(body);
    const at = tampered.length - 20;
    tampered.writeUInt8(tampered.readUInt8(at) ^ 1, at);
    expect(() => browser.decrypt(tampered)).toThrow();
    expect(() => peer().subscriber().decrypt(body)).toThrow();
  });

  it('sends normal urgency for medium-priority alerts, low for low-priority ones', async () => {
    const browser = peer().subscriber();
    const user = await userWithBrowsers(built(), browser);
    let delivered = peer().delivered(browser.endpoint);
    await sendTo([user], [alertRecord(randomUUID(), 'HIGH_HEART_RATE')]);
    expect((await delivered).headers.urgency).toBe('normal');
    delivered = peer().delivered(browser.endpoint);
    await sendTo([user], [alertRecord(randomUUID(), 'BATTERY')]);
    expect((await delivered).headers.urgency).toBe('low');
  });

  it('an escalation step is sent again to its contacts, marked to sound again', async () => {
    const browser = peer().subscriber();
    const user = await userWithBrowsers(built(), browser);
    const deviceId = randomUUID();
    const alert = alertRecord(deviceId, 'FALL', { alertTitle: 'Fall detected' });
    const delivered = peer().delivered(browser.endpoint);
    await queueAlerts(built(), [user.user._id], [alert], 2);
    const request = await delivered;
    expect(JSON.parse(browser.decrypt(request.body))).toMatchObject({
      title: 'Still unacknowledged: Fall detected',
      alertId: alert._id,
      priority: 'high',
      renotify: true,
    });
    expect(request.headers.urgency).toBe('high');
  });

  it('reaches every browser of every assigned user and nobody else', async () => {
    const [a1, a2, b1, outsider] = [
      peer().subscriber(),
      peer().subscriber(),
      peer().subscriber(),
      peer().subscriber(),
    ];
    const alice = await userWithBrowsers(built(), a1, a2);
    const bob = await userWithBrowsers(built(), b1);
    await userWithBrowsers(built(), outsider);
    const deviceId = randomUUID();
    const alerts = [alertRecord(deviceId, 'FALL'), alertRecord(deviceId, 'LOW_SPO2')];
    await sendTo([alice, bob, alice], alerts);
    await built().ctx.outbox.idle();

    for (const browser of [a1, a2, b1]) {
      const bodies = peer()
        .requestsTo(browser.endpoint)
        .map((r) => JSON.parse(browser.decrypt(r.body)).body);
      expect(bodies.sort()).toEqual(alerts.map((a) => a.alertMessage).sort());
    }
    expect(peer().requestsTo(outsider.endpoint)).toEqual([]);
  });

  it.each([404, 410])('deletes a subscription the push service answers %i', async (status) => {
    const gone = peer().subscriber();
    const kept = peer().subscriber();
    const user = await userWithBrowsers(built(), gone, kept);
    peer().script(gone.endpoint, { status });
    await sendTo([user], [alertRecord(randomUUID(), 'SOS')]);
    await built().ctx.outbox.idle();
    expect(peer().requestsTo(gone.endpoint)).toHaveLength(1);
    const left = await browsersOf(built(), user);
    expect(left).toHaveLength(1);
    expect(left[0]?.lastSuccessAt).not.toBeNull();
  });

  it('retries after 429 (respecting Retry-After) and after 5xx, then delivers', async () => {
    const limited = peer().subscriber();
    const flaky = peer().subscriber();
    const user = await userWithBrowsers(built(), limited, flaky);
    peer().script(limited.endpoint, { status: 429, headers: { 'retry-after': '1' } });
    peer().script(flaky.endpoint, { status: 503 }, { status: 500 });
    const alert = alertRecord(randomUUID(), 'SOS');
    const limitedDelivered = peer().delivered(limited.endpoint);
    await sendTo([user], [alert]);

    const second = await limitedDelivered;
    const first = peer().requestsTo(limited.endpoint)[0];
    expect(second.at - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect(JSON.parse(limited.decrypt(second.body)).body).toBe(alert.alertMessage);
    await built().ctx.outbox.idle();
    const flakyRequests = peer().requestsTo(flaky.endpoint);
    expect(flakyRequests).toHaveLength(3);
    expect(JSON.parse(flaky.decrypt(flakyRequests[2]!.body)).body).toBe(alert.alertMessage);
    expect(await browsersOf(built(), user)).toHaveLength(2);
  });

  it('gives up after a few attempts, keeps the subscription and reports the failure rate', async () => {
    const down = peer().subscriber();
    const user = await userWithBrowsers(built(), down);
    peer().script(down.endpoint, ...Array.from({ length: 10 }, () => ({ status: 502 })));
    await sendTo([user], [alertRecord(randomUUID(), 'SOS')]);
    await built().ctx.outbox.idle();
    expect(peer().requestsTo(down.endpoint)).toHaveLength(4);
    expect(await browsersOf(built(), user)).toHaveLength(1);
    expect(built().ctx.push.configured()).toBe(true);
    expect(built().ctx.push.recentFailureRate()).toBeGreaterThan(0);
  });

  it('a push service that does not answer holds up no other browser', async () => {
    const stuck = peer().subscriber();
    const healthy = peer().subscriber();
    const alice = await userWithBrowsers(built(), stuck);
    const bob = await userWithBrowsers(built(), healthy);
    let release = () => {};
    peer().script(stuck.endpoint, { status: 201, hold: new Promise<void>((r) => (release = r)) });
    const stuckDelivered = peer().delivered(stuck.endpoint);
    await sendTo([alice], [alertRecord(randomUUID(), 'SOS')]);
    await expect.poll(() => peer().requestsTo(stuck.endpoint).length).toBe(1);
    // The stuck request is in flight and unanswered; another user's push still goes through.
    const healthyDelivered = peer().delivered(healthy.endpoint);
    await sendTo([bob], [alertRecord(randomUUID(), 'SOS')]);
    await healthyDelivered;
    release();
    await stuckDelivered;
  });
});
