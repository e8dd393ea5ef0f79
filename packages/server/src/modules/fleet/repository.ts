import type { FleetDeviceQuery, FleetSummary, FleetUserQuery } from '@vitalwatch/shared';
import {
  DEVICE_ONLINE_THRESHOLD_MS,
  DEVICE_STALE_THRESHOLD_MS,
  LOW_BATTERY_PERCENT,
} from '@vitalwatch/shared';
import { and, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Tx } from '../../db/index.ts';
import { isoTime, jsonObject } from '../../db/json-text.ts';
import { writtenLimit } from '../../db/once-for.ts';
import { shapedRows } from '../../db/raw-rows.ts';
import {
  alerts,
  devices,
  deviceUsers,
  pushSubscriptions,
  recoveryCodes,
  teamDevices,
  teamUsers,
  users,
} from '../../db/schema.ts';
import { afterCursor, containing, cursorOf, keyText, orderBy, type SortKey, startingWith } from './keyset.ts';

// Qualified by hand: drizzle writes a single-table query's columns bare, and a bare "id" inside the
// correlated subqueries below would name the subquery's own table.
const deviceId = sql.raw('"devices"."id"');
/** The last reading's minute, `-infinity` if none: generated from `last_update` (migration 0031). */
const seenMinute = sql.raw('"devices"."seen_minute"');

const DEVICE_KEYS: Record<FleetDeviceQuery['sort'], SortKey> = {
  name: { expr: sql`lower(${devices.deviceName})`, type: 'text' },
  created: { expr: sql`${devices.createdAt}`, type: 'timestamptz' },
  /** To the minute, then by id: `seen_minute`'s index serves it (migration 0031). */
  lastSeen: { expr: seenMinute, type: 'timestamptz' },
  battery: { expr: sql`coalesce(${devices.battery}, -1::real)`, type: 'real' },
};

const since = (ms: number) => sql`now() - ${`${ms / 1000} seconds`}::interval`;
/**
 * Silent for over `ms`: `seen_minute` (the last reading's minute, never after it) bounds the rows
 * its index reads, `last_update` decides exactly; `-infinity` is a device that never reported.
 */
const silentFor = (ms: number) =>
  sql`(${seenMinute} > '-infinity' and ${seenMinute} < ${since(ms)} and ${devices.lastUpdate} < ${since(ms)})`;
const STATUS: Record<NonNullable<FleetDeviceQuery['status']>, SQL> = {
  online: sql`(${seenMinute} > ${since(DEVICE_ONLINE_THRESHOLD_MS + 60_000)}
    and ${devices.lastUpdate} >= ${since(DEVICE_ONLINE_THRESHOLD_MS)})`,
  offline: silentFor(DEVICE_ONLINE_THRESHOLD_MS),
  stale: silentFor(DEVICE_STALE_THRESHOLD_MS),
  never: sql`${seenMinute} = '-infinity'`,
};
const assigned = sql`exists (select 1 from ${deviceUsers} du where du.device_id = ${deviceId})`;

/**
 * The search and filters of a device page. The search is a union of three index lookups, so no
 * branch turns the page into a scan: the name anywhere (its trigram index), the activation code
 * from its start (the text_pattern_ops index), and the devices of a user whose name, username or
 * e-mail holds the term (the users' `search_text` trigram index, then device_users by user).
 */
function deviceFilters(q: FleetDeviceQuery): SQL[] {
  const where: SQL[] = [];
  if (q.q) {
    where.push(sql`${deviceId} in (
      select d.id from ${devices} d where d.device_name ilike ${containing(q.q)}
      union select d.id from ${devices} d where d.activation_code like ${startingWith(q.q.toUpperCase())}
      union select du.device_id from ${deviceUsers} du join ${users} u on u.id = du.user_id
        where u.search_text like ${containing(q.q.toLowerCase())})`);
  }
  if (q.status) where.push(STATUS[q.status]);
  if (q.validity) where.push(sql`${devices.isValid} = ${q.validity === 'valid'}`);
  if (q.assignment) where.push(q.assignment === 'assigned' ? assigned : sql`not ${assigned}`);
  if (q.battery === 'low') where.push(sql`${devices.battery} < ${LOW_BATTERY_PERCENT}`);
  if (q.team)
    where.push(
      sql`exists (select 1 from ${teamDevices} td where td.team_id = ${q.team}::uuid and td.device_id = ${deviceId})`,
    );
  return where;
}

const openAlerts = sql<number>`(select count(*)::int from ${alerts} a
  where a.device_id = ${deviceId} and a.status <> 'resolved')`;

/**
 * The whole match's count, selected beside each row of a first page in the same query (one round
 * trip). Without a filter, the table's count that migration 0027's triggers keep (exact in every
 * snapshot, like count(*), which it falls back to if missing): the page still walks its sort index
 * and reads no other row. When the page reads its whole match anyway (a search: a union of index
 * lookups, sorted), a window count over those rows: one evaluation instead of two.
 * Otherwise a count of its own, run once (an InitPlan): a window there would hold a broad match
 * (all valid devices) that the page's index walk stops reading after 51 rows, ten times the cost.
 * Later pages carry none.
 */
function matchCount(
  table: typeof devices | typeof users,
  where: SQL[],
  { first, wholeMatchRead }: { first: boolean; wholeMatchRead: boolean },
): SQL<number | null> {
  if (!first) return sql<null>`null::int`;
  if (where.length === 0) {
    const name = table === devices ? 'devices' : 'users';
    return sql<number>`coalesce((select c.n::int from vw_counts.row_counts c where c.table_name = ${name}),
      (select count(*)::int from ${table}))`;
  }
  if (wholeMatchRead) return sql<number>`(count(*) over ())::int`;
  return sql<number>`(select count(*)::int from ${table} where ${and(...where)})`;
}

/** A timestamp as epoch milliseconds (a JSON number), back to a Date on the server. */
const epochMs = (column: SQL | AnyPgColumn) => sql`extract(epoch from ${column}) * 1000`;
const asDate = z.number().transform((ms) => new Date(ms));

/** A page's rows (`row`, a JSON object each) as one JSON text, in `order`, in a column named `packed`. */
const packed = (row: SQL, order: SQL) => ({
  packed: sql<string>`coalesce(json_agg(${row} order by ${order}), '[]')::text`.as('packed'),
});
const packedColumn = z.object({ packed: z.string() });

/**
 * The rows of a packed page query (the users': their quiet hours are checked against their schema
 * as they are presented), run as a prepared statement of its shape (`label`), parsed once and
 * checked by `rows`. With its LIMIT written in, PostgreSQL keeps a generic plan for the shapes
 * whose plans do not hinge on the values (the first page of 30,000 devices: 1.9 → 1.0 ms a call,
 * 0.5 ms of it planning) and goes on planning the others (a device search) as before.
 */
async function unpacked<T>(tx: Tx, label: string, query: SQLWrapper, rows: z.ZodType<T[]>): Promise<T[]> {
  const [page] = await shapedRows(tx, label, query.getSQL(), packedColumn);
  return rows.parse(JSON.parse(page?.packed ?? '[]'));
}

/**
 * A device's users in one pass over its `device_users` rows: their ids and usernames in the same
 * order (when they were assigned), and the ids of its backup contacts; `null` for none.
 */
const circleOf = sql`(select json_agg(du.user_id order by du.created_at, du.user_id) as ids,
    json_agg(u.username order by du.created_at, du.user_id) as names,
    json_agg(du.user_id order by du.created_at, du.user_id) filter (where du.contact_role = 'backup') as backups
  from ${deviceUsers} du join ${users} u on u.id = du.user_id where du.device_id = ${deviceId})`;

/**
 * One page of devices as the reply's `data` (`fleetDevicePage`), written by PostgreSQL: the page's
 * rows (`limit + 1` are read, so that the next page's cursor is known), the whole match's count on
 * the first page (none matched: 0), and `nextCursor`. The page's ids are chosen first and the
 * per-device subqueries (users, alerts) run on those rows only: in one query the planner may
 * evaluate them for every row it sorts, 30,000 of them by battery. Sent as it comes: parsing it,
 * checking it, presenting and serialising it again were 15 % of the server's CPU a page (the
 * tests check it against the response schema and the spec's every-device list).
 */
export function devicePage(tx: Tx, q: FleetDeviceQuery) {
  const key = DEVICE_KEYS[q.sort];
  const where = deviceFilters(q);
  const total = matchCount(devices, where, {
    first: !q.after,
    wholeMatchRead: !!q.q,
  });
  if (q.after) where.push(afterCursor(key, deviceId, q.dir, q.after));
  const page = tx
    .select({
      id: sql<string>`${deviceId}`.as('page_id'),
      key: keyText(key).as('page_key'),
      total: total.as('page_total'),
    })
    .from(devices)
    .where(and(...where))
    .orderBy(orderBy(key, deviceId, q.dir))
    .limit(writtenLimit(q.limit + 1))
    .as('page');
  const row = jsonObject(
    {
      _id: deviceId,
      deviceName: devices.deviceName,
      isValid: devices.isValid,
      lastUpdate: isoTime(devices.lastUpdate),
      make: devices.make,
      model: devices.model,
      createdAt: isoTime(devices.createdAt),
      updatedAt: isoTime(devices.updatedAt),
      users: sql`coalesce(c.ids, '[]')`,
      backupUsers: sql`coalesce(c.backups, '[]')`,
      activationCode: devices.activationCode,
      apiAuthCode: devices.apiAuthCode,
      userNames: sql`coalesce(c.names, '[]')`,
      battery: devices.battery,
      openAlerts,
    },
    sql`${circleOf} c`,
  );
  const order = orderBy(key, deviceId, q.dir);
  const limit = writtenLimit(q.limit);
  // The cursor of the page's last row only (encoding each row's cost PostgreSQL 0.2 ms a page).
  const lastOf = (value: SQLWrapper) => sql`(array_agg(${value} order by ${order}))[${limit}]`;
  const data = sql<string>`'{"devices":' || coalesce(array_to_json((array_agg(${row} order by ${order}))[1:${limit}]), '[]')
    || ',"total":' || ${q.after ? sql`'null'` : sql`coalesce(max(${page.total}), 0)::text`}
    || ',"nextCursor":' || case when count(*) > ${limit}
      then to_json(${cursorOf(lastOf(page.key), lastOf(page.id))})::text else 'null' end
    || '}'`;
  return tx
    .select({ data: data.as('data') })
    .from(page)
    .innerJoin(devices, sql`${deviceId} = ${page.id}`);
}

const pageData = z.object({ data: z.string() });

/** `devicePage`'s JSON text, run as a prepared statement of its shape like `unpacked`. */
export async function devicePageJson(tx: Tx, q: FleetDeviceQuery): Promise<string> {
  const [page] = await shapedRows(tx, 'fleet_devices', devicePage(tx, q).getSQL(), pageData);
  if (!page) throw new Error('fleet_devices: the page query returned no row');
  return page.data;
}

const USER_KEYS: Record<FleetUserQuery['sort'], SortKey> = {
  name: { expr: sql`lower(${users.fullName})`, type: 'text' },
  created: { expr: sql`${users.createdAt}`, type: 'timestamptz' },
};
const userId = sql.raw('"users"."id"');
const searchText = sql.raw('"users"."search_text"');
const ROLE_NAMES = new Set(['user', 'admin']);

/**
 * Name, username and e-mail in one lowercase, trigram-indexed text (`search_text`, migration 0026),
 * matched with LIKE: a fifth of ILIKE's cost on each row the index leaves to check. A role's name
 * matches the role.
 */
function userFilters(q: FleetUserQuery): SQL[] {
  const where: SQL[] = [];
  if (q.q) {
    const term = q.q.toLowerCase();
    const matches = sql`${searchText} like ${containing(term)}`;
    where.push(ROLE_NAMES.has(term) ? sql`(${matches} or ${users.role} = ${term})` : matches);
  }
  if (q.role) where.push(sql`${users.role} = ${q.role}`);
  if (q.team)
    where.push(
      sql`exists (select 1 from ${teamUsers} tu where tu.team_id = ${q.team}::uuid and tu.user_id = ${userId})`,
    );
  return where;
}

const subscriptionIds = sql<string[]>`array(select s.id::text from ${pushSubscriptions} s
  where s.user_id = ${userId} order by s.created_at)`;
const devicesCount = sql<number>`(select count(*)::int from ${deviceUsers} du where du.user_id = ${userId})`;
const recoveryCodesLeft = sql<number>`(select count(*)::int from ${recoveryCodes} r where r.user_id = ${userId})`;

/** One user of a page as the database packs it (`userPage`): what `presentUser` reads. */
const packedUser = z.object({
  id: z.string(),
  fullName: z.string(),
  username: z.string(),
  email: z.string(),
  role: z.enum(['user', 'admin']),
  alertEmails: z.boolean(),
  channelChecks: z.boolean(),
  quietHours: z.unknown(),
  temperatureUnit: z.enum(['F', 'C']),
  totpSecret: z.string().nullable(),
  emailVerifiedAt: asDate.nullable(),
  createdAt: asDate,
  updatedAt: asDate,
  key: z.string(),
  total: z.number().nullable(),
  subscriptionIds: z.array(z.string()),
  devicesCount: z.number(),
  recoveryCodesLeft: z.number(),
});
export type UserPageRow = z.infer<typeof packedUser>;
const packedUsers = z.array(packedUser);

/** One page of users, chosen before the per-user subqueries run, with its count, packed (as `devicePage`). */
export function userPage(tx: Tx, q: FleetUserQuery) {
  const key = USER_KEYS[q.sort];
  const where = userFilters(q);
  const total = matchCount(users, where, { first: !q.after, wholeMatchRead: !!q.q });
  if (q.after) where.push(afterCursor(key, userId, q.dir, q.after));
  const page = tx
    .select({
      id: sql<string>`${userId}`.as('page_id'),
      key: keyText(key).as('page_key'),
      total: total.as('page_total'),
    })
    .from(users)
    .where(and(...where))
    .orderBy(orderBy(key, userId, q.dir))
    .limit(writtenLimit(q.limit + 1))
    .as('page');
  const row = sql`json_build_object(
    'id', ${userId}, 'fullName', ${users.fullName}, 'username', ${users.username}, 'email', ${users.email},
    'role', ${users.role}, 'alertEmails', ${users.alertEmails}, 'channelChecks', ${users.channelChecks},
    'quietHours', ${users.quietHours}, 'temperatureUnit', ${users.temperatureUnit},
    'totpSecret', ${users.totpSecret}, 'emailVerifiedAt', ${epochMs(users.emailVerifiedAt)},
    'createdAt', ${epochMs(users.createdAt)}, 'updatedAt', ${epochMs(users.updatedAt)},
    'key', ${page.key}, 'total', ${page.total}, 'subscriptionIds', to_json(${subscriptionIds}),
    'devicesCount', ${devicesCount}, 'recoveryCodesLeft', ${recoveryCodesLeft})`;
  return tx
    .select(packed(row, orderBy(key, userId, q.dir)))
    .from(page)
    .innerJoin(users, sql`${userId} = ${page.id}`);
}

/** `userPage`'s rows, unpacked. */
export const userPageRows = (tx: Tx, q: FleetUserQuery): Promise<UserPageRow[]> =>
  unpacked(tx, 'fleet_users', userPage(tx, q), packedUsers);

/**
 * The overview's counts in one pass over the devices; the assigned ones are read once from
 * `device_users` (a hashed anti-join), not looked up device by device.
 */
export async function summary(tx: Tx): Promise<Omit<FleetSummary, 'asOf'>> {
  const [row] = await tx
    .select({
      offlineOverHour: sql<number>`count(*) filter (where ${STATUS.stale})::int`,
      lowBattery: sql<number>`count(*) filter (where ${devices.battery} < ${LOW_BATTERY_PERCENT})::int`,
      neverReported: sql<number>`count(*) filter (where ${STATUS.never})::int`,
      unassigned: sql<number>`count(*) filter (where a.device_id is null)::int`,
    })
    .from(devices)
    .leftJoin(sql`(select distinct device_id from ${deviceUsers}) a`, sql`a.device_id = ${deviceId}`);
  if (!row) throw new Error('summary query returned no row');
  return row;
}
