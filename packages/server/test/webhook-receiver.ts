import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { verifySignature } from '../src/webhooks/signing.ts';
import type { TlsIdentity } from './push-peer.ts';

/** One request as the receiver saw it, and whether its signature held for the secret it was given. */
export interface ReceivedHook {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  verified: boolean;
  /** performance.now() when the body had arrived. */
  at: number;
}

/**
 * A local HTTPS webhook receiver, as a receiver would be written: it verifies each request's
 * Standard Webhooks signature over the raw body with the webhook's secret (401 when it fails),
 * then answers what a path was scripted to answer (status, or a delay), else 200.
 */
export class WebhookReceiver {
  readonly received: ReceivedHook[] = [];
  /** Called with each request as it arrives (a benchmark times it). */
  onReceived: ((hook: ReceivedHook) => void) | undefined;
  /** Every answer waits this long (a slow receiver); 0: at once. */
  delayMs = 0;
  private readonly secrets = new Map<string, string>();
  private readonly scripts = new Map<string, Array<{ status?: number; hold?: boolean }>>();
  /** Answers held back until `release()` (a receiver that hangs). */
  private held: Array<() => void> = [];
  private readonly server: https.Server;

  private constructor(server: https.Server) {
    this.server = server;
  }

  static async start(identity: TlsIdentity): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | undefined;
    const server = https.createServer({ cert: identity.cert, key: identity.key }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () =>
        receiver?.answer(req.url ?? '/', req.headers, Buffer.concat(chunks).toString('utf8'), res),
      );
    });
    receiver = new WebhookReceiver(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  /** A fresh path on this receiver, its URL. */
  url(path: string): string {
    return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /** Verify what arrives at `path` with this secret. */
  expectSecret(path: string, secret: string): void {
    this.secrets.set(path, secret);
  }

  /** The next answers at `path`, in order. */
  script(path: string, ...answers: Array<{ status?: number; hold?: boolean }>): void {
    this.scripts.set(path, answers);
  }

  at(path: string): ReceivedHook[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Requests held unanswered right now. */
  get holding(): number {
    return this.held.length;
  }

  /** Answer every held request. */
  release(): void {
    for (const answer of this.held.splice(0)) answer();
  }

  close(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private answer(
    path: string,
    headers: ReceivedHook['headers'],
    body: string,
    res: import('node:http').ServerResponse,
  ): void {
    const secret = this.secrets.get(path);
    const verified = secret !== undefined && verifySignature(secret, headers, body);
    const hook = { path, headers, body, verified, at: performance.now() };
    this.received.push(hook);
    this.onReceived?.(hook);
    const next = this.scripts.get(path)?.shift() ?? {};
    const status = verified ? (next.status ?? 200) : 401;
    const answer = () => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : `status ${status}`);
    };
    if (next.hold) this.held.push(answer);
    else if (this.delayMs > 0) setTimeout(answer, this.delayMs);
    else answer();
  }
}
