import { afterAll, beforeAll } from 'vitest';
import { type DbTarget, useTestApp } from './helpers.ts';
import { PEER_ENDPOINTS } from './push-fixtures.ts';
import type { TlsIdentity } from './push-peer.ts';
import { TwilioReceiver } from './twilio-receiver.ts';
import { WebhookReceiver } from './webhook-receiver.ts';

/** A local receiver started before a file's tests and closed after them; the getter throws before it starts. */
function useReceiver<R extends { close(): Promise<void> }>(start: () => Promise<R>, name: string): () => R {
  let receiver: R | undefined;
  beforeAll(async () => {
    receiver = await start();
  });
  afterAll(async () => {
    await receiver?.close();
  });
  return () => {
    if (!receiver) throw new Error(`${name} not started yet`);
    return receiver;
  };
}

export const useWebhookReceiver = (identity: TlsIdentity) =>
  useReceiver(() => WebhookReceiver.start(identity), 'webhook receiver');

export const useTwilioReceiver = (identity: TlsIdentity) =>
  useReceiver(() => TwilioReceiver.start(identity), 'Twilio receiver');

/** The webhook channel's options against the local receiver: quick retries, `maxAttempts` tries. */
export const receiverWebhookOptions = (identity: TlsIdentity, maxAttempts = 3) => ({
  ca: identity.cert,
  baseDelayMs: 10,
  maxDelayMs: 50,
  maxAttempts,
  requestTimeoutMs: 2000,
});

/** An app whose webhooks go to a local receiver (the outbox turned by the test), and that receiver. */
export function useWebhookApp(target: DbTarget, identity: TlsIdentity, maxAttempts = 3) {
  const built = useTestApp(
    target,
    { ...PEER_ENDPOINTS, notifications: { pollMs: 0 } },
    { webhooks: receiverWebhookOptions(identity, maxAttempts) },
  );
  return { built, receiver: useWebhookReceiver(identity) };
}
