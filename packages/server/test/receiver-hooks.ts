import { afterAll, beforeAll } from 'vitest';
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
