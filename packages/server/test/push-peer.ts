// A real Web Push peer for tests and benchmarks: an HTTPS endpoint that receives what the server
// sends, decrypts it as a browser would (RFC 8291 / RFC 8188 aes128gcm) and checks the VAPID
// header (RFC 8292). Nothing here trusts the sender.
import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  type ECDH,
  hkdfSync,
  randomBytes,
  randomUUID,
  verify,
} from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { type CertFiles, writeSelfSignedCert } from './push-peer-cert.mjs';

export interface TlsIdentity {
  cert: string;
  key: string;
}

/** A fresh self-signed certificate for 127.0.0.1 and localhost. */
export function selfSignedCert(): TlsIdentity {
  const dir = mkdtempSync(path.join(tmpdir(), 'vw-push-peer-'));
  try {
    return readIdentity(writeSelfSignedCert(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A certificate and key written by `writeSelfSignedCert` (for the end-to-end peer: `e2ePushPeerFiles(port)`). */
export const readIdentity = (files: CertFiles): TlsIdentity => ({
  cert: readFileSync(files.certFile, 'utf8'),
  key: readFileSync(files.keyFile, 'utf8'),
});

/** The browser side of a subscription: its P-256 key pair and auth secret. */
export class Subscriber {
  private readonly ecdh: ECDH;
  readonly auth: Buffer;

  readonly endpoint: string;

  constructor(endpoint: string) {
    this.endpoint = endpoint;
    this.ecdh = createECDH('prime256v1');
    this.ecdh.generateKeys();
    this.auth = randomBytes(16);
  }

  /** What `PushSubscription.toJSON()` gives in a browser. */
  toJSON() {
    return {
      endpoint: this.endpoint,
      expirationTime: null,
      keys: { p256dh: this.ecdh.getPublicKey().toString('base64url'), auth: this.auth.toString('base64url') },
    };
  }

  /** Decrypt an aes128gcm push message body (single record), as the browser's push stack does. */
  decrypt(body: Buffer): string {
    const salt = body.subarray(0, 16);
    const recordSize = body.readUInt32BE(16);
    const idLength = body.readUInt8(20);
    const senderPublicKey = body.subarray(21, 21 + idLength);
    const record = body.subarray(21 + idLength);
    if (record.length > recordSize) throw new Error('expected a single record');
    const ecdhSecret = this.ecdh.computeSecret(senderPublicKey);
    const keyInfo = Buffer.concat([
      Buffer.from('WebPush: info\0'),
      this.ecdh.getPublicKey(),
      senderPublicKey,
    ]);
    const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, this.auth, keyInfo, 32));
    const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
    const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(record.subarray(record.length - 16));
    const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end -= 1;
    if (padded[end] !== 2) throw new Error('last record must end with delimiter 0x02');
    return padded.subarray(0, end).toString('utf8');
  }
}

const vapidClaims = z.object({ aud: z.string(), exp: z.number().int(), sub: z.string() });
export type VapidClaims = z.infer<typeof vapidClaims>;

/**
 * Check `Authorization: vapid t=<jwt>, k=<key>`: the key is the server's, the ES256 signature
 * verifies with it, and the claims name this push service; returns the claims.
 */
export function verifyVapid(authorization: string | undefined, expectedPublicKey: string): VapidClaims {
  const match = authorization?.match(/^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/);
  if (!match) throw new Error(`not a VAPID authorization: ${authorization}`);
  const jwt = match[1]!;
  const key = match[2]!;
  if (key !== expectedPublicKey) throw new Error('VAPID key is not the server key');
  const [header = '', payload = '', signature = ''] = jwt.split('.');
  z.object({ alg: z.literal('ES256'), typ: z.literal('JWT') }).parse(
    JSON.parse(Buffer.from(header, 'base64url').toString('utf8')),
  );
  const point = Buffer.from(key, 'base64url');
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!ok) throw new Error('VAPID signature does not verify');
  return vapidClaims.parse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
}

export interface PeerRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** performance.now() when the whole body had arrived. */
  at: number;
}

export interface PeerResponse {
  status: number;
  headers?: Record<string, string>;
  /** Hold the answer until this promise settles (a slow push service). */
  hold?: Promise<void>;
}

/** An HTTPS push service on 127.0.0.1: records every request and answers 201 unless told otherwise. */
export class PushPeer {
  readonly requests: PeerRequest[] = [];
  private readonly scripted = new Map<string, PeerResponse[]>();
  private waiters: Array<{ path: string; resolve: (r: PeerRequest) => void }> = [];
  /** Called for every request the peer accepted (2xx), as it is answered. */
  onDelivered: ((request: PeerRequest) => void) | undefined;
  private readonly server: https.Server;
  readonly identity: TlsIdentity;

  private constructor(identity: TlsIdentity) {
    this.identity = identity;
    this.server = https.createServer({ cert: identity.cert, key: identity.key }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const request = {
          path: req.url ?? '/',
          headers: req.headers,
          body: Buffer.concat(chunks),
          at: performance.now(),
        };
        this.requests.push(request);
        const response = this.scripted.get(request.path)?.shift() ?? { status: 201 };
        void (response.hold ?? Promise.resolve()).finally(() => {
          res.writeHead(response.status, response.headers).end();
          if (response.status >= 200 && response.status < 300) {
            this.onDelivered?.(request);
            this.resolveWaiters(request);
          }
        });
      });
    });
  }

  static async start(identity: TlsIdentity = selfSignedCert()): Promise<PushPeer> {
    const peer = new PushPeer(identity);
    await new Promise<void>((resolve) => peer.server.listen(0, '127.0.0.1', resolve));
    return peer;
  }

  get origin(): string {
    return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** A new browser subscription whose endpoint is on this peer. */
  subscriber(): Subscriber {
    return new Subscriber(`${this.origin}/push/${randomUUID()}`);
  }

  /** Answer the next requests to this endpoint with these responses, then 201 again. */
  script(endpoint: string, ...responses: PeerResponse[]): void {
    this.scripted.set(new URL(endpoint).pathname, responses);
  }

  /** The next request to this endpoint that was accepted (2xx). */
  delivered(endpoint: string, timeoutMs = 10_000): Promise<PeerRequest> {
    const wanted = new URL(endpoint).pathname;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no push delivered to ${wanted}`)), timeoutMs);
      this.waiters.push({
        path: wanted,
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
      });
    });
  }

  requestsTo(endpoint: string): PeerRequest[] {
    const wanted = new URL(endpoint).pathname;
    return this.requests.filter((r) => r.path === wanted);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private resolveWaiters(request: PeerRequest): void {
    const [matching, rest] = [
      this.waiters.filter((w) => w.path === request.path),
      this.waiters.filter((w) => w.path !== request.path),
    ];
    const first = matching.shift();
    this.waiters = [...rest, ...matching];
    first?.resolve(request);
  }
}
