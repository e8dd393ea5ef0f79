// The people and the device a benchmark run alerts, made through the public API: one watcher with a
// browser (Web Push), one with a webhook (signed JSON), one with a verified phone and no browser
// (a high-priority alert texts a contact that push cannot reach at once).
import { authResponse } from '@vitalwatch/shared';
import { z } from 'zod';
import type { PushPeer, Subscriber } from '../../test/push-peer.ts';
import type { TwilioReceiver } from '../../test/twilio-receiver.ts';
import type { WebhookReceiver } from '../../test/webhook-receiver.ts';

export const BENCH_ADMIN = {
  username: 'bench-admin',
  email: 'bench-admin@vitalwatch.test',
  password: 'Bench-Passw0rd',
};

const envelope = z.object({ data: z.unknown().optional() });

/** POST JSON to the API; throws on any answer but 2xx. */
export async function call(
  base: string,
  urlPath: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${base}/api/v1${urlPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const json: unknown = await res.json();
  if (!res.ok) throw new Error(`${urlPath}: ${res.status} ${JSON.stringify(json)}`);
  return envelope.parse(json).data;
}

async function signup(base: string, name: string) {
  const password = 'Watch3r-Passw0rd';
  const signedUp = authResponse.shape.data.parse(
    await call(base, '/user/create', {
      user: {
        fullName: name,
        username: name,
        email: `${name}@vitalwatch.test`,
        password,
        cnfPassword: password,
      },
    }),
  );
  return { id: signedUp.user._id, auth: { authorization: `Bearer ${signedUp.accessToken}` } };
}

export interface Receivers {
  peer: PushPeer;
  webhooks: WebhookReceiver;
  twilio: TwilioReceiver;
}

/** The admin's authorization header. */
export async function adminAuth(base: string): Promise<Record<string, string>> {
  const admin = authResponse.shape.data.parse(
    await call(base, '/user/login', {
      user: { username: BENCH_ADMIN.username, password: BENCH_ADMIN.password },
    }),
  );
  return { authorization: `Bearer ${admin.accessToken}` };
}

/**
 * Device `n` and its three watchers (each device its own, so no one browser or number takes every
 * alert); resolves to the device's API key and the subscribed browser.
 */
export async function setUpDevice(
  base: string,
  admin: Record<string, string>,
  receivers: Receivers,
  n: number,
): Promise<{ apiKey: string; browser: Subscriber }> {
  const [pushed, hooked, texted] = await Promise.all(
    ['push', 'hook', 'sms'].map((name) => signup(base, `bench-${name}-${n}`)),
  );
  if (!pushed || !hooked || !texted) throw new Error('sign-up failed');
  const device = z
    .object({ device: z.object({ apiAuthCode: z.string() }) })
    .parse(
      await call(
        base,
        '/admin/add-device',
        { deviceName: `Bench band ${n}`, isValid: true, users: [pushed.id, hooked.id, texted.id] },
        admin,
      ),
    ).device;

  const browser = receivers.peer.subscriber();
  await call(base, '/user/save-fcm-token', { fcmToken: browser.toJSON() }, pushed.auth);

  const hookPath = `/bench-hook-${n}`;
  const { secret } = z
    .object({ secret: z.string() })
    .parse(
      await call(
        base,
        '/webhook/create',
        { url: receivers.webhooks.url(hookPath), format: 'json' },
        hooked.auth,
      ),
    );
  receivers.webhooks.expectSecret(hookPath, secret);

  const phone = `+1500555${String(1000 + n)}`;
  await call(base, '/sms/number', { phone }, texted.auth);
  await call(base, '/sms/verify', { code: receivers.twilio.codeFor(phone) }, texted.auth);
  return { apiKey: device.apiAuthCode, browser };
}
