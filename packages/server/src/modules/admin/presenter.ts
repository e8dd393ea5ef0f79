import type { AdminUser } from '@vitalwatch/shared';
import { presentUser } from '../user/service.ts';
import type { AdminUserRow } from './repository.ts';

/** A user for the admin screens: the public user (no hash, no token) plus the assigned-device count. */
export const presentAdminUser = (
  row: AdminUserRow,
  fcmTokens: string[],
  devicesCount: number,
  recoveryCodesLeft: number,
): AdminUser => ({
  ...presentUser(row, fcmTokens, recoveryCodesLeft),
  devicesCount,
});
