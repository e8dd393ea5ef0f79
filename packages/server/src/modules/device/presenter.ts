import type { AdminDevice, UserDevice } from '@vitalwatch/shared';
import type { DeviceRow, DeviceWithCount, DeviceWithUsers } from './repository.ts';

const common = (d: DeviceRow) => ({
  _id: d.id,
  deviceName: d.deviceName,
  isValid: d.isValid,
  lastUpdate: d.lastUpdate?.toISOString() ?? null,
  createdAt: d.createdAt.toISOString(),
  updatedAt: d.updatedAt.toISOString(),
});

/** What a user sees: how many people watch the device, never its secrets. */
export const presentUserDevice = (d: DeviceWithCount): UserDevice => ({ ...common(d), users: d.userCount });

/** What an admin sees: the assigned user ids and both codes. */
export const presentAdminDevice = (d: DeviceWithUsers): AdminDevice => ({
  ...common(d),
  users: d.userIds,
  backupUsers: d.backupUserIds,
  activationCode: d.activationCode,
  apiAuthCode: d.apiAuthCode,
});
