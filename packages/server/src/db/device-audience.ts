import { sql } from 'drizzle-orm';
import { deviceUsers } from './schema.ts';

/** Who hears of a device: SQL array expressions over its assignments, for the queries that lock or read it. */

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
