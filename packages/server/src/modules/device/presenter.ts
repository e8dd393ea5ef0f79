import type { AdminDevice, UserDevice } from '@vitalwatch/shared';
import { isoText as iso } from '../../lib/iso-time.ts';
import type { DeviceBasics, DeviceRow, UserDeviceRow } from './repository.ts';

const common = (d: DeviceBasics) => ({
  _id: d.id,
  deviceName: d.deviceName,
  isValid: d.isValid,
  lastUpdate: d.lastUpdate === null ? null : iso(d.lastUpdate),
  make: d.make,
  model: d.model,
  createdAt: iso(d.createdAt),
  updatedAt: iso(d.updatedAt),
});

/**
 * What a user sees: how many people watch the device, never its secrets; their own name for it
 * (the shared one beside it) and their place in its circle.
 */
export const presentUserDevice = (d: UserDeviceRow): UserDevice => ({
  ...common(d),
  deviceName: d.nickname ?? d.deviceName,
  sharedName: d.deviceName,
  nickname: d.nickname,
  circleRole: d.circleRole,
  users: d.userCount,
});

/** What an admin sees: the assigned user ids and both codes. */
export const presentAdminDevice = (
  d: DeviceBasics &
    Pick<DeviceRow, 'activationCode' | 'apiAuthCode'> & { userIds: string[]; backupUserIds: string[] },
): AdminDevice => ({
  ...common(d),
  users: d.userIds,
  backupUsers: d.backupUserIds,
  activationCode: d.activationCode,
  apiAuthCode: d.apiAuthCode,
});
