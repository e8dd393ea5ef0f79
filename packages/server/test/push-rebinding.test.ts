import { randomUUID } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import https from 'node:https';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { upsertPushSubscription } from '../src/modules/user/repository.ts';
import { PushEndpointGuard, RefusedPushEndpointError } from '../src/push-delivery/endpoint-guard.ts';
import { dbTargets, useTestApp } from './helpers.ts';
import {
  alertRecord,
  browsersOf,
  PEER_ENDPOINTS,
  queueAlerts,
  usePushPeer,
  userWithBrowsers,
} from './push-fixtures.ts';
import { Subscriber, selfSignedCert } from './push-peer.ts';
import { PUBLIC_TEST_ADDRESS, TestDns } from './test-dns.ts';

const identity = selfSignedCert();
const vapid = { ...webpush.generateVAPIDKeys(), subject: 'mailto:push-test@vitalwatch.test' };
const ANY_HOST = { allowedHosts: 'any', testOnlyHosts: [] } as const;

describe.each(dbTargets())('sending refuses what a push host resolves to now, on $name', (target) => {
  const dns = new TestDns();
  const built = useTestApp(
    target,
    { vapid, ...PEER_ENDPOINTS },
    { push: { ca: identity.cert, baseDelayMs: 20 }, lookupHost: dns.lookup },
  );
  const peer = usePushPeer(identity);

  it('a host rebound to this machine after subscribing is never sent to, and its subscription is dropped', async () => {
    const host = `rebind-${randomUUID().slice(0, 8)}.example.com`;
    const rebound = new Subscriber(`https://${host}/push/${randomUUID()}`);
    const healthy = peer().subscriber();
    // Public when the browser subscribed…
    const user = await userWithBrowsers(built(), rebound, healthy);
    expect(await browsersOf(built(), user)).toHaveLength(2);
    // …then the name points at the push peer's own machine (DNS rebinding).
    dns.set(host, '127.0.0.1');
    const lookupsBefore = dns.lookups.filter((name) => name === host).length;

    const delivered = peer().delivered(healthy.endpoint);
    await queueAlerts(built(), [user.user._id], [alertRecord(randomUUID(), 'SOS')]);
    await delivered;
    await built().ctx.outbox.idle();

    // The connection looked the name up again, refused the answer, and did not retry.
    expect(dns.lookups.filter((name) => name === host).length).toBe(lookupsBefore + 1);
    expect(peer().requests.filter((r) => r.path === new URL(rebound.endpoint).pathname)).toEqual([]);
    const left = await browsersOf(built(), user);
    expect(left.map((b) => b.pushService)).toEqual([new URL(healthy.endpoint).host]);
  });

  it('a subscription saved before the rules, on an IP address, is dropped without connecting', async () => {
    const user = await userWithBrowsers(built());
    const stored = new Subscriber(`https://169.254.169.254/push/${randomUUID()}`).toJSON();
    await upsertPushSubscription(built().ctx.db, {
      userId: user.user._id,
      endpoint: stored.endpoint,
      p256dh: stored.keys.p256dh,
      auth: stored.keys.auth,
      userAgent: null,
    });
    expect(await browsersOf(built(), user)).toHaveLength(1);
    await queueAlerts(built(), [user.user._id], [alertRecord(randomUUID(), 'FALL')]);
    await built().ctx.outbox.idle();
    expect(await browsersOf(built(), user)).toEqual([]);
  });
});

describe('the push connection guard', () => {
  let server: net.Server;
  let port = 0;
  let accepted = 0;
  beforeAll(async () => {
    server = net.createServer((socket) => {
      accepted += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** A TCP connection through the guard's lookup: `connected`, or the error that stopped it. */
  const connect = (guard: PushEndpointGuard, host: string) =>
    new Promise<unknown>((resolve) => {
      const socket = net.connect({ host, port, lookup: guard.connectLookup });
      socket.on('connect', () => {
        socket.destroy();
        resolve('connected');
      });
      socket.on('error', resolve);
    });

  it('never opens a connection to a name that resolves into the network', async () => {
    const dns = new TestDns();
    dns.set('rebound.example.com', '127.0.0.1');
    const before = accepted;
    const refused = await connect(new PushEndpointGuard(ANY_HOST, dns.lookup), 'rebound.example.com');
    expect(refused).toBeInstanceOf(RefusedPushEndpointError);
    expect(refused).toMatchObject({ issue: 'privateAddress' });
    // The same name exempted (as tests exempt their push peer) does connect, and the server counts it.
    const exempt = new PushEndpointGuard({ ...ANY_HOST, testOnlyHosts: ['rebound.example.com'] }, dns.lookup);
    expect(await connect(exempt, 'rebound.example.com')).toBe('connected');
    await expect.poll(() => accepted - before).toBe(1);
  });

  it('connects only to the public addresses of a name that has both', async () => {
    const dns = new TestDns();
    dns.set('mixed.example.com', '10.0.0.7', PUBLIC_TEST_ADDRESS, 'fd00::7');
    const guard = new PushEndpointGuard(ANY_HOST, dns.lookup);
    const all = await new Promise<LookupAddress[] | string>((resolve, reject) =>
      guard.connectLookup('mixed.example.com', { all: true }, (err, addresses) =>
        err ? reject(err) : resolve(addresses),
      ),
    );
    expect(all).toEqual([{ address: PUBLIC_TEST_ADDRESS, family: 4 }]);
  });

  it('its agent refuses an IP address, a local name or another port before connecting', () => {
    const agent = new PushEndpointGuard(ANY_HOST, new TestDns().lookup).agent();
    for (const [hostname, requestPort, issue] of [
      ['127.0.0.1', port, 'port'],
      ['169.254.169.254', 443, 'ipAddress'],
      ['::1', 443, 'ipAddress'],
      ['metadata.google.internal', 443, 'localHost'],
      ['push.example.com', 5432, 'port'],
    ] as const) {
      expect(() => https.request({ hostname, port: requestPort, agent })).toThrow(
        expect.objectContaining({ name: 'RefusedPushEndpointError', issue }),
      );
    }
    agent.destroy();
  });
});
