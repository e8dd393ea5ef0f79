import { and, desc, eq, isNull, lt, or } from 'drizzle-orm';
import type { Tx } from '../../db/index.ts';
import { deviceGateways, devices } from '../../db/schema.ts';

export type GatewayRow = typeof deviceGateways.$inferSelect;
export type DeviceRow = typeof devices.$inferSelect;

/** `last_used_at` is written at most once a minute per gateway, not on every batch. */
const LAST_USED_STEP_MS = 60_000;

export const insertGateway = async (tx: Tx, row: typeof deviceGateways.$inferInsert): Promise<GatewayRow> =>
  (await tx.insert(deviceGateways).values(row).returning())[0]!;

/** The live (not revoked) gateways of a device, newest first. */
export const liveGateways = (tx: Tx, deviceId: string): Promise<GatewayRow[]> =>
  tx
    .select()
    .from(deviceGateways)
    .where(and(eq(deviceGateways.deviceId, deviceId), isNull(deviceGateways.revokedAt)))
    .orderBy(desc(deviceGateways.createdAt));

export const revokeGateway = async (tx: Tx, deviceId: string, gatewayId: string): Promise<boolean> =>
  (
    await tx
      .update(deviceGateways)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(deviceGateways.id, gatewayId),
          eq(deviceGateways.deviceId, deviceId),
          isNull(deviceGateways.revokedAt),
        ),
      )
      .returning({ id: deviceGateways.id })
  ).length === 1;

/** The device of a live gateway key (by its hash), or undefined. */
export const deviceOfKey = async (
  tx: Tx,
  keyHash: string,
): Promise<{ gatewayId: string; device: DeviceRow } | undefined> => {
  const [row] = await tx
    .select({ gatewayId: deviceGateways.id, device: devices })
    .from(deviceGateways)
    .innerJoin(devices, eq(devices.id, deviceGateways.deviceId))
    .where(and(eq(deviceGateways.keyHash, keyHash), isNull(deviceGateways.revokedAt)))
    .limit(1);
  return row;
};

export const touchGateway = async (tx: Tx, gatewayId: string, now: Date): Promise<void> => {
  await tx
    .update(deviceGateways)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(deviceGateways.id, gatewayId),
        or(
          isNull(deviceGateways.lastUsedAt),
          lt(deviceGateways.lastUsedAt, new Date(now.getTime() - LAST_USED_STEP_MS)),
        ),
      ),
    );
};

export const setMakeModel = async (
  tx: Tx,
  deviceId: string,
  info: { make?: string; model?: string },
): Promise<void> => {
  await tx.update(devices).set(info).where(eq(devices.id, deviceId));
};
