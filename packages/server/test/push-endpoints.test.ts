import { randomUUID } from 'node:crypto';
import { PUSH_ENDPOINT_ISSUES, type PushEndpointIssue } from '@vitalwatch/shared';
import { describe, expect, it } from 'vitest';
import type { BuiltApp } from '../src/app.ts';
import { DEFAULT_PUSH_ENDPOINT_POLICY } from '../src/push-delivery/endpoint-guard.ts';
import { dbTargets, signup, type TestUser, useTestApp } from './helpers.ts';
import { browsersOf, CHROME_UA } from './push-fixtures.ts';
import { Subscriber } from './push-peer.ts';
import { PUBLIC_TEST_ADDRESS, TestDns } from './test-dns.ts';

const saveToken = (built: BuiltApp, user: TestUser, fcmToken: unknown) =>
  built.app.inject({
    method: 'POST',
    url: '/api/v1/user/save-fcm-token',
    headers: { ...user.auth, 'user-agent': CHROME_UA },
    payload: { fcmToken },
  });

/** A 400 that names the broken rule, on the endpoint field, and nothing stored. */
async function expectRefused(
  built: BuiltApp,
  endpoint: string,
  issue: PushEndpointIssue,
  asJsonString = false,
) {
  const user = await signup(built);
  const subscription = new Subscriber(endpoint).toJSON();
  const res = await saveToken(built, user, asJsonString ? JSON.stringify(subscription) : subscription);
  const message = PUSH_ENDPOINT_ISSUES[issue];
  expect(res.statusCode).toBe(400);
  expect(res.json()).toEqual({
    success: false,
    message,
    code: 'VALIDATION_ERROR',
    issues: [{ path: 'fcmToken.endpoint', message }],
  });
  expect(await browsersOf(built, user)).toEqual([]);
}

const host = (label: string) => `${label}-${randomUUID().slice(0, 8)}.example.com`;

describe.each(dbTargets())('push subscriptions pointing into the network are refused on $name', (target) => {
  const dns = new TestDns();
  const built = useTestApp(target, {}, { lookupHost: dns.lookup });

  it.each<[string, PushEndpointIssue]>([
    ['http://push.example.com/send/1', 'notHttps'],
    ['https://user:secret@push.example.com/send/1', 'credentials'],
    ['https://localhost:5432/send/1', 'port'],
    ['https://push.example.com:8443/send/1', 'port'],
    ['https://169.254.169.254/latest/meta-data/', 'ipAddress'],
    ['https://10.0.0.1/send/1', 'ipAddress'],
    ['https://8.8.8.8/send/1', 'ipAddress'],
    ['https://2130706433/send/1', 'ipAddress'],
    ['https://0x7f.1/send/1', 'ipAddress'],
    ['https://[::1]/send/1', 'ipAddress'],
    ['https://[::ffff:127.0.0.1]/send/1', 'ipAddress'],
    ['https://localhost/send/1', 'localHost'],
    ['https://localhost./send/1', 'localHost'],
    ['https://api.localhost/send/1', 'localHost'],
    ['https://printer.local/send/1', 'localHost'],
    ['https://metadata.google.internal/computeMetadata/v1/', 'localHost'],
    ['https://intranet/send/1', 'localHost'],
  ])('refuses %s (%s)', async (endpoint, issue) => {
    await expectRefused(built(), endpoint, issue);
  });

  it.each([
    ['10.1.2.3'],
    ['169.254.169.254'],
    ['100.64.0.1'],
    ['127.0.0.1'],
    ['0.0.0.0'],
    ['::1'],
    ['fd00::1'],
    ['fe80::1'],
    ['::ffff:192.168.0.1'],
    [PUBLIC_TEST_ADDRESS, '10.0.0.1'],
  ])('refuses a host name that resolves to %s', async (...addresses) => {
    const name = host('inside');
    dns.set(name, ...addresses);
    await expectRefused(built(), `https://${name}/send/1`, 'privateAddress');
  });

  it('refuses the JSON-string form of the subscription alike', async () => {
    const name = host('inside');
    dns.set(name, '192.168.1.20');
    await expectRefused(built(), `https://${name}/send/1`, 'privateAddress', true);
  });

  it('refuses a host name that does not exist', async () => {
    const name = host('missing');
    dns.set(name);
    await expectRefused(built(), `https://${name}/send/1`, 'notFound');
  });

  it('answers 503 with Retry-After, storing nothing, when DNS cannot answer now', async () => {
    const name = host('later');
    dns.failWith(name, 'EAI_AGAIN');
    const user = await signup(built());
    const res = await saveToken(built(), user, new Subscriber(`https://${name}/send/1`).toJSON());
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect(await browsersOf(built(), user)).toEqual([]);
  });

  it('accepts a host name whose every address is public', async () => {
    const name = host('push');
    dns.set(name, PUBLIC_TEST_ADDRESS, '2a00:1450:4001:82b::200a');
    const user = await signup(built());
    const res = await saveToken(built(), user, new Subscriber(`https://${name}:443/send/1`).toJSON());
    expect(res.statusCode).toBe(200);
    expect((await browsersOf(built(), user)).map((b) => b.pushService)).toEqual([name]);
    expect(dns.lookups).toContain(name);
  });
});

describe('by default only the browsers’ push services are accepted', () => {
  const [pglite] = dbTargets();
  const built = useTestApp(pglite!, { pushEndpoints: DEFAULT_PUSH_ENDPOINT_POLICY });

  it.each([
    'https://fcm.googleapis.com/fcm/send/abc:def',
    'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
    'https://web.push.apple.com/QGuQyavXutnMH',
    'https://wns2-par02p.notify.windows.com/w/?token=BQYAAA',
  ])('accepts %s', async (endpoint) => {
    const user = await signup(built());
    expect((await saveToken(built(), user, new Subscriber(endpoint).toJSON())).statusCode).toBe(200);
  });

  it.each([
    'https://push.example.com/send/1',
    'https://evilpush.apple.com/x',
    'https://push.apple.com.example.net/x',
    'https://fcm.googleapis.com.example.net/fcm/send/1',
  ])('refuses %s', async (endpoint) => {
    await expectRefused(built(), endpoint, 'notPushService');
  });
});
