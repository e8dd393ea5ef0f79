import { type SQLWrapper, sql } from 'drizzle-orm';
import { deviceUsers } from '../db/schema.ts';

/**
 * Who may see a device, and who hears of it, as SQL: the one place these rules are written. A user
 * sees a device (its readings, alerts, share links) while assigned to it, as primary or backup
 * contact; admins are never assigned, so they see no one's health data through these.
 */

/**
 * The "devices this user may see" condition: true when `userId` (a value or a column) is assigned
 * to `deviceId` (a column or expression). Every read of what a user may see filters with it.
 */
export const maySee = (userId: string | SQLWrapper, deviceId: SQLWrapper) =>
  sql<boolean>`exists (select 1 from ${deviceUsers} du where du.device_id = ${deviceId} and du.user_id = ${userId}::uuid)`;

/** Every user assigned to the device (the audience of its readings and alerts), as a SQL array. */
export const userIdsOf = (deviceId: unknown) =>
  sql<string[]>`array(select du.user_id::text from ${deviceUsers} du where du.device_id = ${deviceId})`;

/**
 * A device's primary contacts (notified of every alert), as a SQL array: those assigned as
 * primary, or, when every assigned user is a backup, all of them, so no alert goes unnotified.
 */
export const contactIdsOf = (deviceId: unknown) =>
  sql<string[]>`coalesce(
    nullif(array(select du.user_id::text from ${deviceUsers} du
      where du.device_id = ${deviceId} and du.contact_role = 'primary'), '{}'),
    array(select du.user_id::text from ${deviceUsers} du where du.device_id = ${deviceId}))`;

/**
 * A device's backup contacts (told when an escalation reaches them), as a SQL array: those
 * assigned as backup while someone is primary; when every assigned user is a backup they are the
 * primary contacts (`contactIdsOf`) and there are none.
 */
export const backupIdsOf = (deviceId: unknown) =>
  sql<string[]>`array(select du.user_id::text from ${deviceUsers} du
    where du.device_id = ${deviceId} and du.contact_role = 'backup'
      and exists (select 1 from ${deviceUsers} p where p.device_id = ${deviceId} and p.contact_role = 'primary'))`;
