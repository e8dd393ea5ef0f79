import type { Socket } from 'node:net';
import type { Client } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { DeviceAuthLimits } from '../auth/device-auth-limits.ts';
import { type FailureThrottle, sharedFailureThrottle } from '../auth/failure-throttle.ts';

/** Failed-authentication counters of MQTT devices; see DEVICE_AUTH_LIMITS. */
export interface ConnectLimits {
  /** Failed CONNECTs per remote address (embedded broker only). */
  perIp: FailureThrottle;
  /** Wrong codes per device id (embedded broker and the external broker's auth hook). */
  perDevice: FailureThrottle;
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
    perDevice: sharedFailureThrottle(
      redis,
      'mqtt-device-fail',
      { limit: limits.failuresPerDevice, windowMs: limits.deviceWindowMs },
      log,
    ),
    maxConnectionsPerIp: limits.mqttConnectionsPerIp,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Device ids are UUIDs: anything else can never log in, and is not worth a counter of its own. */
export const isDeviceId = (value: string | undefined): value is string =>
  value !== undefined && UUID.test(value);

/** Why a CONNECT is refused before its credentials are checked, as an MQTT 3.1.1 CONNACK code. */
export interface Refusal {
  /** 3 server unavailable (this address, for now); 5 not authorized (this device id, for now). */
  returnCode: 3 | 5;
  message: string;
}

/**
 * The embedded broker's defence against guessing and floods, in front of the credential check:
 * - per address: open connections are capped, and after too many failed CONNECTs every CONNECT
 *   from it is refused (3, server unavailable) for the rest of the window, before any database
 *   lookup;
 * - per device id: after too many wrong codes the id is refused (5, not authorized) for the rest
 *   of the window, even with the right code; a success clears its count.
 * A successful CONNECT costs two counter lookups and nothing else. Each block is logged once,
 * when it starts; passwords never.
 */
export class ConnectGuard {
  private readonly open = new Map<string, number>();
  /** Addresses at the connection cap that were already reported. */
  private readonly reportedFull = new Set<string>();

  constructor(
    private readonly limits: ConnectLimits,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Counts a new socket until it closes; false when its address is at the cap (drop it). */
  admit(socket: Socket): boolean {
    const ip = socket.remoteAddress ?? 'unknown';
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

  /** A refusal when the address or the device id is blocked now; undefined to go on. */
  async refusal(ip: string, username: string | undefined): Promise<Refusal | undefined> {
    const [ipWait, deviceWait] = await Promise.all([
      this.limits.perIp.blockedFor(ip),
      isDeviceId(username) ? this.limits.perDevice.blockedFor(username) : 0,
    ]);
    if (ipWait > 0) return { returnCode: 3, message: 'too many failed connections from this address' };
    if (deviceWait > 0) return { returnCode: 5, message: 'too many failed attempts for this device' };
    return undefined;
  }

  /** Wrong or missing credentials: count them for the address and, if it is one, the device id. */
  async failed(ip: string, username: string | undefined): Promise<void> {
    const [ipWait, deviceWait] = await Promise.all([
      this.limits.perIp.fail(ip),
      isDeviceId(username) ? this.limits.perDevice.fail(username) : 0,
    ]);
    if (ipWait > 0) {
      this.log.warn(
        { ip, retryAfterSeconds: ipWait },
        'MQTT address refused after too many failed connections',
      );
    }
    if (deviceWait > 0) {
      this.log.warn(
        { deviceId: username, ip, retryAfterSeconds: deviceWait },
        'MQTT device id refused after too many wrong codes',
      );
    }
  }

  /** The device logged in: its earlier wrong codes no longer count. Not awaited by the CONNACK. */
  succeeded(deviceId: string): void {
    void this.limits.perDevice.reset(deviceId);
  }
}

/** The remote address of an MQTT client (a TCP socket; a WebSocket's request). */
export function remoteAddressOf(client: Client): string {
  const conn = client.conn;
  return ('remoteAddress' in conn ? conn.remoteAddress : client.req?.socket.remoteAddress) ?? 'unknown';
}
