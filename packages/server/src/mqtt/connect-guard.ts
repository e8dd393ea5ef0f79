import type { Socket } from 'node:net';
import type { Client } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { addressKey } from '../auth/address-key.ts';
import type { DeviceAuthLimits } from '../auth/device-auth-limits.ts';
import { type FailureThrottle, sharedFailureThrottle } from '../auth/failure-throttle.ts';
import { VerifiedCredentials } from './verified-credentials.ts';
import { WrongCodeWatch } from './wrong-code-watch.ts';

/** Failed-authentication counters of MQTT devices; see DEVICE_AUTH_LIMITS. */
export interface ConnectLimits {
  /** Failed CONNECTs per remote address (embedded broker only). */
  perIp: FailureThrottle;
  /** Wrong codes per device id, reported, never refused (embedded broker and the auth hook). */
  wrongCodes: WrongCodeWatch;
  maxConnectionsPerIp: number;
}

/** Counted in Redis when the app has one, so every node (and the auth hook on any node) agrees. */
export function connectLimits(
  redis: Redis | undefined,
  limits: DeviceAuthLimits,
  log: FastifyBaseLogger,
): ConnectLimits {
  return {
    perIp: sharedFailureThrottle(
      redis,
      'mqtt-ip-fail',
      { limit: limits.failuresPerIp, windowMs: limits.ipWindowMs },
      log,
    ),
    wrongCodes: new WrongCodeWatch(
      sharedFailureThrottle(
        redis,
        'mqtt-device-fail',
        { limit: limits.failuresPerDevice, windowMs: limits.deviceWindowMs },
        log,
      ),
      limits.deviceWindowMs,
    ),
    maxConnectionsPerIp: limits.mqttConnectionsPerIp,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Device ids are UUIDs: anything else can never log in, and is not worth a counter of its own. */
export const isDeviceId = (value: string | undefined): value is string =>
  value !== undefined && UUID.test(value);

/** Why a CONNECT is refused before its credentials are checked: 3 (server unavailable). */
export interface Refusal {
  returnCode: 3;
  message: string;
}

/**
 * The embedded broker's defence against floods of failing CONNECTs, in front of the credential
 * check. Per address (an IPv6 one by its /64): open connections are capped, and after too many
 * failed CONNECTs the address is blocked for the rest of the window. While it is, a CONNECT is
 * refused (3, server unavailable) before any database lookup, unless its id and code are ones
 * that logged in on this node before (VerifiedCredentials): the valid devices behind a clinic
 * gateway or a load balancer keep connecting while something else behind it keeps failing.
 * Known credentials still go through the full check, so a disabled device or an old code is
 * still refused. Wrong codes are also counted per device id, only to report it (WrongCodeWatch):
 * a right code is never refused because of them. Blocks are logged when they start; codes never.
 */
export class ConnectGuard {
  private readonly open = new Map<string, number>();
  /** Addresses at the connection cap that were already reported. */
  private readonly reportedFull = new Set<string>();

  private readonly limits: ConnectLimits;
  private readonly log: FastifyBaseLogger;
  private readonly verified: VerifiedCredentials;

  constructor(limits: ConnectLimits, log: FastifyBaseLogger, verified = new VerifiedCredentials()) {
    this.limits = limits;
    this.log = log;
    this.verified = verified;
  }

  /** Counts a new socket until it closes; false when its address is at the cap (drop it). */
  admit(socket: Socket): boolean {
    const ip = addressKey(socket.remoteAddress ?? 'unknown');
    const count = this.open.get(ip) ?? 0;
    if (count >= this.limits.maxConnectionsPerIp) {
      if (!this.reportedFull.has(ip)) {
        this.reportedFull.add(ip);
        this.log.warn({ ip, open: count }, 'MQTT connections from one address at the cap; dropping more');
      }
      return false;
    }
    this.open.set(ip, count + 1);
    socket.once('close', () => {
      const left = (this.open.get(ip) ?? 1) - 1;
      if (left > 0) this.open.set(ip, left);
      else this.open.delete(ip);
      if (left < this.limits.maxConnectionsPerIp) this.reportedFull.delete(ip);
    });
    return true;
  }

  /**
   * A refusal when the address is blocked and these are not credentials that logged in before;
   * undefined to go on to the credential check. Known credentials skip the counter lookup.
   */
  async refusal(
    ip: string,
    username: string | undefined,
    password: string | undefined,
  ): Promise<Refusal | undefined> {
    if (isDeviceId(username) && password !== undefined && this.verified.has(username, password)) {
      return undefined;
    }
    if ((await this.limits.perIp.blockedFor(addressKey(ip))) > 0) {
      return { returnCode: 3, message: 'too many failed connections from this address' };
    }
    return undefined;
  }

  /**
   * Wrong or missing credentials: counted for the address and, if it is one, reported for the
   * device id. A code that logged in before and is wrong now (regenerated) is forgotten.
   */
  async failed(ip: string, username: string | undefined, password: string | undefined): Promise<void> {
    const key = addressKey(ip);
    if (isDeviceId(username) && password !== undefined && this.verified.has(username, password)) {
      this.verified.forget(username);
    }
    const [ipWait] = await Promise.all([
      this.limits.perIp.fail(key),
      isDeviceId(username) ? this.limits.wrongCodes.wrong(username, this.log, { ip }) : undefined,
    ]);
    if (ipWait > 0) {
      this.log.warn(
        { ip: key, retryAfterSeconds: ipWait },
        'MQTT address refused after too many failed connections (devices that logged in before still connect)',
      );
    }
  }

  /** The device logged in with this code: it may connect even while its address is blocked. */
  succeeded(deviceId: string, apiAuthCode: string): void {
    this.verified.remember(deviceId, apiAuthCode);
  }
}

/** The remote address of an MQTT client (a TCP socket; a WebSocket's request). */
export function remoteAddressOf(client: Client): string {
  const conn = client.conn;
  return ('remoteAddress' in conn ? conn.remoteAddress : client.req?.socket.remoteAddress) ?? 'unknown';
}
