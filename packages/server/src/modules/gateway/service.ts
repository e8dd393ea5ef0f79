import { randomBytes } from 'node:crypto';
import { type DeviceInfoBody, GATEWAY_KEY_PREFIX, type Gateway, HEALTH_MESSAGES } from '@vitalwatch/shared';
import { canSeeDevice } from '../../access/devices.ts';
import { hashToken } from '../../auth/tokens.ts';
import type { Db } from '../../db/index.ts';
import { notFound } from '../../errors.ts';
import * as repo from './repository.ts';

const deviceNotFound = () => notFound(HEALTH_MESSAGES.notFound);

const present = (g: repo.GatewayRow): Gateway => ({
  _id: g.id,
  label: g.label,
  createdAt: g.createdAt.toISOString(),
  lastUsedAt: g.lastUsedAt?.toISOString() ?? null,
});

/**
 * Browser gateways (issue 28). A user who may see a device issues a key for the browser that
 * forwards a wearable's readings; the key ingests for that device only, and is never the user's
 * session: signing out, or losing access to the device, does not stop it — revoking it does.
 * Keys are 256 random bits after `GATEWAY_KEY_PREFIX`; only their SHA-256 is stored. Lookups go to
 * the database every time (no cache), so a revoked key is refused at its very next batch.
 */
export class GatewayService {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  async issue(userId: string, deviceId: string, label: string): Promise<{ gateway: Gateway; key: string }> {
    if (!(await canSeeDevice(this.db, userId, deviceId))) throw deviceNotFound();
    const key = GATEWAY_KEY_PREFIX + randomBytes(32).toString('base64url');
    const row = await repo.insertGateway(this.db, { deviceId, userId, label, keyHash: hashToken(key) });
    return { gateway: present(row), key };
  }

  async list(userId: string, deviceId: string): Promise<Gateway[]> {
    if (!(await canSeeDevice(this.db, userId, deviceId))) throw deviceNotFound();
    return (await repo.liveGateways(this.db, deviceId)).map(present);
  }

  /** Revokes a live gateway of a device the user may see (any of its users may); 404 otherwise. */
  async revoke(userId: string, deviceId: string, gatewayId: string): Promise<Gateway[]> {
    if (!(await canSeeDevice(this.db, userId, deviceId))) throw deviceNotFound();
    if (!(await repo.revokeGateway(this.db, deviceId, gatewayId))) throw notFound('Gateway not found');
    return (await repo.liveGateways(this.db, deviceId)).map(present);
  }

  /** Whether an `X-Api-Key` is a gateway key (else it is a device's own API code). */
  isGatewayKey(apiKey: string): boolean {
    return apiKey.startsWith(GATEWAY_KEY_PREFIX);
  }

  /** The device a live gateway key ingests for, or undefined (unknown or revoked). */
  async deviceOfKey(apiKey: string, now = new Date()): Promise<repo.DeviceRow | undefined> {
    const found = await repo.deviceOfKey(this.db, hashToken(apiKey));
    if (!found) return undefined;
    await repo.touchGateway(this.db, found.gatewayId, now);
    return found.device;
  }

  /** Stores the make and model a gateway read from the wearable on its device. */
  async saveDeviceInfo(deviceId: string, info: DeviceInfoBody): Promise<void> {
    await repo.setMakeModel(this.db, deviceId, info);
  }
}
