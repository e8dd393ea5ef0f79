import { type SQLWrapper, sql } from 'drizzle-orm';
import { deviceUsers, teamDevices, teamUsers, users } from '../db/schema.ts';

/**
 * Who may see a device, and who hears of it, as SQL: the one place these rules are written. A user
 * sees a device (its readings, alerts, share links) while assigned to it directly or through a care
 * team holding it, as primary or backup contact; admins are never assigned nor counted in a team,
 * so they see no one's health data through these.
 */

/**
 * Every grant of a device to a user, `(device_id, user_id, contact_role, alerted)`: a direct
 * assignment (once an owner has confirmed it), or a membership of a team that holds the device. A
 * user may hold several grants of one device; they are a primary contact when any of them is
 * primary. A circle's viewer sees the data but is never notified of alerts (`alerted` false).
 */
const grants = sql`(
  select du.device_id, du.user_id, du.contact_role, du.circle_role <> 'viewer' as alerted
    from ${deviceUsers} du where du.pending_since is null
  union all
  select td.device_id, tu.user_id, tu.contact_role, true from ${teamDevices} td
    join ${teamUsers} tu on tu.team_id = td.team_id
    join ${users} tm on tm.id = tu.user_id and tm.role = 'user'
)`;

/**
 * The "devices this user may see" condition: true when `userId` (a value or a column) is granted
 * `deviceId` (a column or expression). Every read of what a user may see filters with it.
 */
export const maySee = (userId: string | SQLWrapper, deviceId: SQLWrapper) =>
  sql<boolean>`exists (select 1 from ${grants} g where g.device_id = ${deviceId} and g.user_id = ${userId}::uuid)`;

/**
 * The ids of every device `userId` may see, each once, as a SQL subquery of one column `device_id`
 * (for `device_id in (…)`, or a FROM list to walk each device's rows).
 */
export const visibleDeviceIds = (userId: string | SQLWrapper) =>
  sql`(select distinct g.device_id from ${grants} g where g.user_id = ${userId}::uuid)`;

/** Every user granted the device (the audience of its readings and alerts), as a SQL array. */
export const userIdsOf = (deviceId: unknown) =>
  sql<string[]>`array(select distinct g.user_id::text from ${grants} g where g.device_id = ${deviceId})`;

/**
 * A device's primary contacts (notified of every alert), as a SQL array: those granted it as
 * primary, or, when every granted user is a backup, all of them, so no alert goes unnotified.
 * Viewers are never among them.
 */
export const contactIdsOf = (deviceId: unknown) =>
  sql<string[]>`coalesce(
    nullif(array(select distinct g.user_id::text from ${grants} g
      where g.device_id = ${deviceId} and g.alerted and g.contact_role = 'primary'), '{}'),
    array(select distinct g.user_id::text from ${grants} g where g.device_id = ${deviceId} and g.alerted))`;

/**
 * Every device's primary contacts at once, `(device_id, user_id)` rows, by the rule of
 * `contactIdsOf` (the primaries, or every alerted user when all are backups): for a question about
 * the whole fleet, in one pass instead of one subquery per device.
 */
export const allContactPairs = sql`(
  with g as ${grants},
  p as (select distinct device_id, user_id from g where alerted and contact_role = 'primary')
  select device_id, user_id from p
  union
  select g.device_id, g.user_id from g
    where g.alerted and not exists (select 1 from p where p.device_id = g.device_id)
)`;

/**
 * A device's backup contacts (told when an escalation reaches them), as a SQL array: those granted
 * it only as backup while someone is primary; when every granted user is a backup they are the
 * primary contacts (`contactIdsOf`) and there are none.
 */
export const backupIdsOf = (deviceId: unknown) =>
  sql<string[]>`array(select distinct g.user_id::text from ${grants} g
    where g.device_id = ${deviceId} and g.alerted and g.contact_role = 'backup'
      and not exists (select 1 from ${grants} own
        where own.device_id = ${deviceId} and own.user_id = g.user_id and own.contact_role = 'primary')
      and exists (select 1 from ${grants} p
        where p.device_id = ${deviceId} and p.alerted and p.contact_role = 'primary'))`;
