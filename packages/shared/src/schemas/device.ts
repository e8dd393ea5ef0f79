import { z } from 'zod';
import { CIRCLE_ROLES } from '../constants.ts';
import { envelope } from './common.ts';
import { PLAIN_TEXT_PATTERN, plainTextMessage } from './user.ts';

export const DEVICE_MESSAGES = {
  fetched: 'Devices fetched successfully',
  details: 'Device details fetched successfully',
  added: 'Device added successfully',
  updated: 'Device updated successfully',
  renamed: 'Device name updated successfully',
  deleted: 'Device deleted successfully',
  validityChanged: 'Device validity changed successfully',
  activationCodeRegenerated: 'Activation code regenerated successfully',
  apiAuthCodeRegenerated: 'API auth code regenerated successfully',
  notFound: 'Device not found',
  ownerOnly: "Only the device's owner or an admin can change this",
  unknownActivationCode: 'No device has this activation code',
  tooManyActivationCodes: 'Too many wrong activation codes. Please try again later.',
  inactive: 'This device is inactive',
  alreadyAdded: 'This device is already added to your account',
  unknownUser: 'Unknown user',
  notAUser: 'Only users (not admins) can be assigned to a device',
  backupNotAssigned: 'A backup contact must be one of the assigned users',
  missingApiKey: 'Missing X-Api-Key header',
  unknownApiKey: 'Unknown API key',
} as const;

export const deviceNameField = z
  .string({ error: 'Device name is required' })
  .trim()
  .min(1, 'Device name is required')
  .max(100, 'Device name is too long')
  .regex(PLAIN_TEXT_PATTERN, plainTextMessage('Device name'));
export const activationCodeField = z
  .string({ error: 'Activation code is required' })
  .trim()
  .min(1, 'Activation code is required')
  .max(64, 'Activation code is too long');

const deviceBase = z.object({
  _id: z.string(),
  deviceName: z.string(),
  isValid: z.boolean(),
  users: z.number().int(),
  lastUpdate: z.string().nullable(),
  /** What the wearable's Device Information service (0x180A) says it is, once a gateway read it. */
  make: z.string().nullable(),
  model: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/**
 * A device as its users see it: `users` is a count; `deviceName` is the name this user sees (their
 * nickname if they gave one, else the shared name), `sharedName` everyone's name for it.
 */
export const userDevice = deviceBase.extend({
  sharedName: z.string(),
  nickname: z.string().nullable(),
  circleRole: z.enum(CIRCLE_ROLES),
});
export type UserDevice = z.infer<typeof userDevice>;

/** A device as an admin sees it: `users` are ids (`backupUsers` those of them who are backup contacts), codes included. */
export const adminDevice = deviceBase.extend({
  users: z.array(z.string()),
  backupUsers: z.array(z.string()),
  activationCode: z.string(),
  apiAuthCode: z.string(),
});
export type AdminDevice = z.infer<typeof adminDevice>;

export const userDevicesResponse = envelope(z.object({ devices: z.array(userDevice) }));
export const userDeviceResponse = envelope(z.object({ device: userDevice }));
export const adminDevicesResponse = envelope(z.object({ devices: z.array(adminDevice) }));
export const adminDeviceResponse = envelope(z.object({ device: adminDevice }));

export const addUserDeviceBody = z.object({
  data: z.object({ activationCode: activationCodeField, deviceName: deviceNameField.optional() }),
});
/**
 * Renaming: `personal` (the default for all but the owner) sets the caller's own nickname, `shared`
 * (the owner's default; the owner only) the name everyone sees. A nickname equal to the shared
 * name is no nickname.
 */
export const updateUserDeviceBody = z.object({
  data: z.object({
    deviceId: z.string().min(1).max(64),
    newName: deviceNameField,
    scope: z.enum(['personal', 'shared']).optional(),
  }),
});
export const deviceDetailsBody = z.object({
  data: z.object({ deviceId: z.string({ error: 'deviceId is required' }).min(1).max(64) }),
});

const assignedUsersField = z
  .array(z.string().min(1).max(64), { error: 'users must be a list of user ids' })
  .max(1000, 'At most 1000 users per device');

/**
 * Which of the assigned users are backup contacts: they see everything, but are notified only when
 * a high-priority alert escalates. Everyone else assigned is a primary contact.
 */
const backupUsersField = z
  .array(z.string().min(1).max(64), { error: 'backupUsers must be a list of user ids' })
  .max(1000, 'At most 1000 users per device');

/** `POST /admin/add-device`: active and unassigned unless said otherwise. */
export const adminDeviceBody = z.object({
  deviceName: deviceNameField,
  isValid: z.boolean().default(true),
  users: assignedUsersField.default([]),
  backupUsers: backupUsersField.default([]),
});
/** `POST /admin/update-device/:id`: an omitted `isValid`, `users` or `backupUsers` is left as it is (never reset). */
export const adminDeviceUpdateBody = z.object({
  deviceName: deviceNameField,
  isValid: z.boolean().optional(),
  users: assignedUsersField.optional(),
  backupUsers: backupUsersField.optional(),
});
export const changeValidityBody = z.object({ isValid: z.boolean() });
/** Which secret `regenerate-code` replaces: the code users type, or the device's API key. */
export const codeTypeQuery = z.object({
  codeType: z.enum(['activationCode', 'apiAuthCode'], {
    error: 'codeType must be activationCode or apiAuthCode',
  }),
});
