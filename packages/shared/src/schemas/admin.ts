import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '../constants.ts';
import { TOASTS, VALIDATION } from '../messages.ts';
import { envelope } from './common.ts';
import { emailField, fullNameField, publicUser, roleSchema, usernameField } from './user.ts';

/** Messages of the admin API (success messages reuse the spec's toast texts). */
export const ADMIN_MESSAGES = {
  stats: 'Stats fetched successfully',
  userGrowth: 'User growth fetched successfully',
  systemStatus: 'System status fetched successfully',
  users: 'Users fetched successfully',
  userAdded: TOASTS.userAdded,
  userUpdated: TOASTS.userUpdated,
  passwordReset: TOASTS.passwordReset,
  userDeleted: TOASTS.userDeleted,
  userNotFound: 'User not found',
  lastAdmin: 'The last admin cannot be removed or demoted',
  selfDelete: 'You cannot delete your own account',
  adminWithDevices:
    'Remove this user from their devices before making them an admin: admins are not assigned devices',
  passwordTooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  unknownTimeZone: 'Unknown time zone',
} as const;

// ---- stats ----

export const adminStats = z.object({
  usersCount: z.number().int(),
  devicesCount: z.number().int(),
  /** Alerts that nobody has read yet (read state is per user; one read by any assigned user clears it). */
  alertsUnreadCount: z.number().int(),
  /** Channel health (issue 30): who of the people alerted first cannot be reached. */
  channelHealth: z.object({
    /** Primary contacts of high-priority devices (enabled, with a primary contact) with no working channel. */
    contactsWithoutChannel: z.number().int(),
    /** Devices none of whose primary contacts has a working channel. */
    devicesWithoutChannel: z.number().int(),
    /** The first of those devices, by name (at most `UNREACHABLE_DEVICES_SHOWN`). */
    devices: z.array(z.object({ _id: z.string(), deviceName: z.string() })),
  }),
});
/** Devices without a reachable contact that the admin dashboard names; the count says how many more. */
export const UNREACHABLE_DEVICES_SHOWN = 20;
export type AdminStats = z.infer<typeof adminStats>;
export const adminStatsResponse = envelope(adminStats);

// ---- user growth ----

/** An IANA name such as `Europe/Paris` or `UTC` (no raw offsets: databases read their sign differently). */
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;
const isKnownTimeZone = (name: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
};
export const timeZoneField = z
  .string()
  .max(64, ADMIN_MESSAGES.unknownTimeZone)
  .regex(IANA_NAME, ADMIN_MESSAGES.unknownTimeZone)
  .refine(isKnownTimeZone, ADMIN_MESSAGES.unknownTimeZone);

/** `POST /admin/user-growth`: days are counted in `timeZone` when given, else in UTC. */
export const userGrowthBody = z.object({ timeZone: timeZoneField.optional() }).nullish();

export const userGrowthEntry = z.object({
  /** Calendar day `YYYY-MM-DD` in the requested time zone. */
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** Users created that day. */
  users: z.number().int(),
});
export type UserGrowthEntry = z.infer<typeof userGrowthEntry>;
/** Oldest day first, today last; days without sign-ups are present with 0. */
export const userGrowthResponse = envelope(z.array(userGrowthEntry));

// ---- system status ----

export const SYSTEM_COMPONENTS = [
  'Database',
  'API Service',
  'Notification Service',
  'Email Service',
  /** Only while scheduled backups are configured (BACKUP_DIR). */
  'Backups',
] as const;
export const componentStatus = z.enum(['operational', 'degraded', 'outage']);
export type ComponentStatus = z.infer<typeof componentStatus>;

export const systemComponent = z.object({
  name: z.enum(SYSTEM_COMPONENTS),
  status: componentStatus,
  /** What was checked or what went wrong, for the admin. */
  detail: z.string().optional(),
});
export type SystemComponent = z.infer<typeof systemComponent>;

export const systemStatus = z.object({
  overallStatus: componentStatus,
  components: z.array(systemComponent),
});
export type SystemStatus = z.infer<typeof systemStatus>;
export const systemStatusResponse = envelope(systemStatus);

// ---- users ----

/** A user as the admin list shows it: the public user plus how many devices are assigned. */
export const adminUser = publicUser.extend({ devicesCount: z.number().int() });
export type AdminUser = z.infer<typeof adminUser>;

/** `POST /admin/all-users`: `isUser: true` lists only role user (the device-assignment selector). */
export const allUsersBody = z.object({ isUser: z.boolean().optional() }).nullish();
export const adminUsersResponse = envelope(z.object({ users: z.array(adminUser) }));
export const adminUserResponse = envelope(z.object({ user: adminUser }));

/** The admin form has no strength rules (spec 5); the server still asks for the minimum length. */
export const adminPasswordField = z
  .string({ error: VALIDATION.passwordRequired })
  .min(1, VALIDATION.passwordRequired)
  .min(PASSWORD_MIN_LENGTH, ADMIN_MESSAGES.passwordTooShort)
  .max(128, 'Password is too long');

export const editUserBody = z.object({
  fullName: fullNameField,
  username: usernameField,
  email: emailField,
  role: roleSchema,
});
export type EditUserInput = z.infer<typeof editUserBody>;

export const addUserBody = editUserBody.extend({
  role: roleSchema.default('user'),
  password: adminPasswordField,
});
export type AddUserInput = z.infer<typeof addUserBody>;

export const resetPasswordBody = z.object({ newPassword: adminPasswordField });
