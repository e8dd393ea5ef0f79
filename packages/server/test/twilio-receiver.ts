import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TlsIdentity } from './push-peer.ts';

export const TWILIO_TEST = {
  accountSid: 'AC0123456789abcdef0123456789abcdef',
  authToken: 'test-auth-token',
  from: '+15005550006',
};

/** One message as the receiver took it. */
export interface ReceivedSms {
  to: string;
  from: string;
  body: string;
  /** performance.now() when the request had arrived. */
  at: number;
}

/** An answer the receiver was scripted to give instead of accepting. */
export interface ScriptedAnswer {
  status: number;
  code?: number;
  /** Never answer (a provider that hangs): the sender's time-out ends the try. */
  hold?: boolean;
}

/**
 * A local HTTPS service that speaks Twilio's Messages API as far as VitalWatch uses it: it answers
 * 404 to any other path, 401 without the account's Basic credentials, 400 without `To`, `From`
 * and `Body` form fields, else what a number was scripted to answer, else 201 with a message SID.
 */
export class TwilioReceiver {
  readonly accepted: ReceivedSms[] = [];
  /** Every request that reached the Messages path, accepted or not. */
  readonly tries: ReceivedSms[] = [];
  /** Called with each message accepted (a benchmark times it). */
  onAccepted: ((message: ReceivedSms) => void) | undefined;
  /** Every answer waits this long (a slow provider); 0: at once. */
  delayMs = 0;
  private readonly scripts = new Map<string, ScriptedAnswer[]>();
  private readonly server: https.Server;
  private sids = 0;

  private constructor(server: https.Server) {
    this.server = server;
  }

  static async start(identity: TlsIdentity): Promise<TwilioReceiver> {
    let receiver: TwilioReceiver | undefined;
    const server = https.createServer({ cert: identity.cert, key: identity.key }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => receiver?.answer(req, Buffer.concat(chunks).toString('utf8'), res));
    });
    receiver = new TwilioReceiver(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get origin(): string {
    return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The next answers to messages for `to`, in order. */
  script(to: string, ...answers: ScriptedAnswer[]): void {
    this.scripts.set(to, answers);
  }

  to(phone: string): ReceivedSms[] {
    return this.accepted.filter((m) => m.to === phone);
  }

  /** The code in the last message to this number. */
  codeFor(phone: string): string {
    const code = this.to(phone)
      .at(-1)
      ?.body.match(/\b(\d{6})\b/)?.[1];
    if (!code) throw new Error(`no code sent to ${phone}`);
    return code;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private answer(
    req: import('node:http').IncomingMessage,
    raw: string,
    res: import('node:http').ServerResponse,
  ) {
    const reply = (status: number, body: object) => {
      // The sender gave up waiting (a slow provider): nobody to answer.
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || req.url !== `/2010-04-01/Accounts/${TWILIO_TEST.accountSid}/Messages.json`)
      return reply(404, { code: 20404, message: 'not found' });
    const basic = Buffer.from(`${TWILIO_TEST.accountSid}:${TWILIO_TEST.authToken}`).toString('base64');
    if (req.headers.authorization !== `Basic ${basic}`)
      return reply(401, { code: 20003, message: 'Authenticate' });
    if (req.headers['content-type'] !== 'application/x-www-form-urlencoded')
      return reply(400, { code: 21100, message: 'not a form' });
    const form = new URLSearchParams(raw);
    const message = {
      to: form.get('To') ?? '',
      from: form.get('From') ?? '',
      body: form.get('Body') ?? '',
      at: performance.now(),
    };
    if (!message.to || !message.from || !message.body)
      return reply(400, { code: 21604, message: 'To, From and Body' });
    this.tries.push(message);
    const scripted = this.scripts.get(message.to)?.shift();
    if (scripted?.hold) return;
    if (scripted)
      return reply(scripted.status, { code: scripted.code ?? null, message: `scripted ${scripted.status}` });
    this.accepted.push(message);
    this.onAccepted?.(message);
    this.sids += 1;
    const sid = `SM${String(this.sids).padStart(32, '0')}`;
    if (this.delayMs > 0) setTimeout(() => reply(201, { sid, status: 'queued' }), this.delayMs);
    else reply(201, { sid, status: 'queued' });
  }
}
