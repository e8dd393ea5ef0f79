import { randomBytes } from 'node:crypto';
import type { BuiltApp } from '../src/app.ts';
import type { Db } from '../src/db/index.ts';
import { alerts, devices, deviceUsers, pushSubscriptions } from '../src/db/schema.ts';
import { unique } from './helpers.ts';

/** `POST /api/v1/admin/<path>` with optional auth header and JSON body. */
export const adminPost = (
  built: BuiltApp,
  path: string,
  auth?: { authorization: string },
  payload?: unknown,
) =>
  built.app.inject({
    method: 'POST',
    url: `/api/v1/admin/${path}`,
    ...(auth ? { headers: auth } : {}),
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

/** A device assigned to `userIds`, inserted directly (the device API belongs to another module). */
export async function insertDevice(db: Db, userIds: string[] = []): Promise<string> {
  const [device] = await db
    .insert(devices)
    .values({
      deviceName: unique('device'),
      activationCode: randomBytes(8).toString('hex'),
      apiAuthCode: randomBytes(16).toString('hex'),
    })
    .returning({ id: devices.id });
  const id = device!.id;
  if (userIds.length > 0)
    await db.insert(deviceUsers).values(userIds.map((userId) => ({ deviceId: id, userId })));
  return id;
}

export async function insertAlert(db: Db, deviceId: string): Promise<string> {
  const [alert] = await db
    .insert(alerts)
    .values({
      deviceId,
      alertType: 'SOS',
      alertTitle: 'SOS',
      alertMessage: 'SOS pressed',
      recordedAt: new Date(),
    })
    .returning({ id: alerts.id });
  return alert!.id;
}

export async function insertPushSubscription(db: Db, userId: string): Promise<string> {
  const [sub] = await db
    .insert(pushSubscriptions)
    .values({ userId, endpoint: `https://push.example.com/${unique('ep')}`, p256dh: 'key', auth: 'auth' })
    .returning({ id: pushSubscriptions.id });
  return sub!.id;
}
