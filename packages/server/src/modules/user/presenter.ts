import { type PublicUser, quietHoursSchema } from '@vitalwatch/shared';
import type { PresentableUser } from './repository.ts';

/** The only way a user leaves the server: no hash, no token, ids as strings. */
export const presentUser = (
  u: PresentableUser,
  fcmTokens: string[],
  recoveryCodesLeft: number,
): PublicUser => ({
  _id: u.id,
  fullName: u.fullName,
  username: u.username,
  email: u.email,
  role: u.role,
  fcmTokens,
  alertEmails: u.alertEmails,
  channelChecks: u.channelChecks,
  quietHours: storedQuietHours(u.quietHours),
  temperatureUnit: u.temperatureUnit,
  twoFactorEnabled: u.totpSecret !== null,
  recoveryCodesLeft: u.totpSecret === null ? 0 : recoveryCodesLeft,
  emailVerified: u.emailVerifiedAt !== null,
  createdAt: u.createdAt.toISOString(),
  updatedAt: u.updatedAt.toISOString(),
});

/**
 * Quiet hours as stored; anything unreadable counts as none (alerts then always come through). None
 * stored is answered without the schema: a failed parse builds its issues, on every profile read.
 */
export function storedQuietHours(value: unknown) {
  if (value === null || value === undefined) return null;
  const parsed = quietHoursSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
