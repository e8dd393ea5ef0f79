import { randomUUID } from 'node:crypto';
import { type AlertRecord, priorityOf, pushBrowsersResponse } from '@vitalwatch/shared';
import { afterAll, beforeAll, expect } from 'vitest';
import webpush from 'web-push';
import type { BuiltApp } from '../src/app.ts';
import type { AppConfig } from '../src/config.ts';
import { enqueueNotices } from '../src/notification-outbox/repository.ts';
import { createAdmin, type DbTarget, signup, type TestUser, useTestApp } from './helpers.ts';
import { PushPeer, type Subscriber, type TlsIdentity } from './push-peer.ts';

/** An alert as ingestion emits it, unique message text so deliveries can be told apart. */
export const alertRecord = (deviceId: string, alertType: string, overrides: Partial<AlertRecord> = {}) =>
  ({
    _id: randomUUID(),
    device: deviceId,
    deviceName: 'Wrist band',
    alertType,
    alertTitle: `${alertType} alert`,
    alertMessage: `Message ${randomUUID()}`,
    createdAt: new Date().toISOString(),
    receivedAt: new Date().toISOString(),
    isRead: false,
    priority: priorityOf(alertType),
    status: 'active',
    acknowledged: null,
    resolved: null,
    ...overrides,
  }) satisfies AlertRecord;

/**
 * Queue alerts' push and e-mail to these contacts in the notification outbox, as the transaction
 * that stores an alert (`step` 0) or takes an escalation step does; the outbox's workers send them.
 */
export const queueAlerts = (built: BuiltApp, contactIds: string[], alerts: AlertRecord[], step = 0) =>
  built.ctx.db.transaction((tx) =>
    enqueueNotices(
      tx,
      alerts.map((alert) => ({ alert, contactIds, step })),
    ),
  );

export const CHROME_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/140.0 Safari/537.36';

/**
 * Configuration of an app that sends to a local push peer: the peer's 127.0.0.1 is exempt from the
 * push endpoint rules (a test-only setting; the configuration refuses it outside NODE_ENV=test).
 */
export const PEER_ENDPOINTS = {
  pushEndpoints: { allowedHosts: 'any', testOnlyHosts: ['127.0.0.1'] },
} satisfies Partial<AppConfig>;

/** Sign up and connect one browser per subscriber, through the API a browser uses. */
export async function userWithBrowsers(built: BuiltApp, ...subscribers: Subscriber[]): Promise<TestUser> {
  const user = await signup(built);
  for (const s of subscribers) {
    const res = await built.app.inject({
      method: 'POST',
      url: '/api/v1/user/save-fcm-token',
      headers: { ...user.auth, 'user-agent': CHROME_UA },
      payload: { fcmToken: s.toJSON() },
    });
    expect(res.statusCode).toBe(200);
  }
  return user;
}

/** The user's connected browsers, as the API lists them. */
export async function browsersOf(built: BuiltApp, user: TestUser) {
  const res = await built.app.inject({
    method: 'POST',
    url: '/api/v1/push/subscriptions',
    headers: user.auth,
  });
  expect(res.statusCode).toBe(200);
  return pushBrowsersResponse.parse(res.json()).data.subscriptions;
}

/** A local push service for the test file (started before its tests, closed after); a getter, as it exists only once started. */
export function usePushPeer(identity: TlsIdentity): () => PushPeer {
  let peer: PushPeer | undefined;
  beforeAll(async () => {
    peer = await PushPeer.start(identity);
  });
  afterAll(async () => {
    await peer?.close();
  });
  return () => {
    if (!peer) throw new Error('push peer not started yet');
    return peer;
  };
}

/**
 * An app whose outbox does not run by itself (each test turns it), sending pushes to a local push
 * service with short retry waits, and an admin to add devices.
 */
export function useOutboxApp(target: DbTarget, identity: TlsIdentity) {
  const vapid = { ...webpush.generateVAPIDKeys(), subject: 'mailto:push-test@vitalwatch.test' };
  const built = useTestApp(
    target,
    { vapid, ...PEER_ENDPOINTS, notifications: { pollMs: 0 } },
    { push: { ca: identity.cert, baseDelayMs: 10, maxDelayMs: 50 } },
  );
  const peer = usePushPeer(identity);
  let admin: TestUser | undefined;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });
  return {
    built,
    peer,
    admin: () => {
      if (!admin) throw new Error('admin not made yet');
      return admin;
    },
  };
}
