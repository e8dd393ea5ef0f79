import { and, desc, eq, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { z } from 'zod';
import { maySee, visibleDeviceIds } from '../../access/audience.ts';
import { flatRows } from '../../db/flat-rows.ts';
import type { Db, Tx } from '../../db/index.ts';
import { isoTime } from '../../db/json-text.ts';
import { limitTier, onceForKey, statementName, writtenLimit } from '../../db/once-for.ts';
import { quickRead, quickUpTo } from '../../db/pipelined-reads.ts';
import { preparedRows, rawRows } from '../../db/raw-rows.ts';
import { alertReads, alerts, devices } from '../../db/schema.ts';
import type { IsoTime } from '../../lib/iso-time.ts';
import { type LifecycleRow, type LifecycleView, lifecycleColumns, type StoredAlert } from './rows.ts';

/**
 * Carers' reads and actions: the alerts of the devices a user may see (`maySee`), their own read
 * state, and the shared lifecycle. The engine's writes are in engine-repository.ts.
 */

/**
 * An alert as one user sees it. Its times are text PostgreSQL wrote (`isoTime`) in the lists, dates
 * for one just stored (`presentNewAlert`).
 */
export interface VisibleAlert extends LifecycleView {
  deviceName: string;
  alertType: string;
  alertTitle: string;
  alertMessage: string;
  recordedAt: IsoTime;
  /** When the server stored it (arrival), not when it happened. */
  createdAt: IsoTime;
  isRead: boolean;
}

export interface ActingUser {
  userId: string;
  username: string;
}

/**
 * Acknowledge (`active` → `acknowledged`) or resolve (→ `resolved`) one alert of a device the
 * user is assigned to. Returns the updated row, or undefined when it was not in a state to move
 * (already acknowledged / resolved) or not the user's.
 */
export async function moveLifecycle(
  tx: Tx,
  alertId: string,
  to: 'acknowledged' | 'resolved',
  by: ActingUser,
  note: string | null,
  at: Date,
): Promise<LifecycleRow | undefined> {
  const visible = maySee(by.userId, alerts.deviceId);
  const [row] =
    to === 'acknowledged'
      ? await tx
          .update(alerts)
          .set({
            status: 'acknowledged',
            acknowledgedAt: at,
            acknowledgedBy: by.userId,
            acknowledgedByName: by.username,
            ackNote: note,
          })
          .where(and(eq(alerts.id, alertId), eq(alerts.status, 'active'), visible))
          .returning(lifecycleColumns)
      : await tx
          .update(alerts)
          .set({
            status: 'resolved',
            resolvedAt: at,
            resolvedBy: by.userId,
            resolvedByName: by.username,
            resolveNote: note,
            // Marked handled without an acknowledgement first: handling it is the acknowledgement.
            acknowledgedAt: sql`coalesce(${alerts.acknowledgedAt}, ${at.toISOString()}::timestamptz)`,
            acknowledgedBy: sql`coalesce(${alerts.acknowledgedBy}, ${by.userId}::uuid)`,
            acknowledgedByName: sql`coalesce(${alerts.acknowledgedByName}, ${by.username})`,
          })
          .where(and(eq(alerts.id, alertId), sql`${alerts.status} <> 'resolved'`, visible))
          .returning(lifecycleColumns);
  return row;
}

/** One alert as stored, if the user is assigned to its device. */
export async function alertFor(tx: Tx, userId: string, alertId: string): Promise<StoredAlert | undefined> {
  const [row] = await tx
    .select({ alert: alerts })
    .from(alerts)
    .where(and(eq(alerts.id, alertId), maySee(userId, alerts.deviceId)));
  return row?.alert;
}

/** One alert's shared state, if the user is assigned to its device. */
export async function lifecycleFor(
  tx: Tx,
  userId: string,
  alertId: string,
): Promise<LifecycleRow | undefined> {
  const [row] = await tx
    .select(lifecycleColumns)
    .from(alerts)
    .where(and(eq(alerts.id, alertId), maySee(userId, alerts.deviceId)));
  return row;
}

export interface AlertFilters {
  deviceId?: string;
  from?: Date;
  to?: Date;
  status?: StoredAlert['status'];
  priority?: StoredAlert['priority'];
}

/**
 * Alerts with their device's name and the user's own read state, those `where` picks: it must keep
 * to the devices the user may see (`visibleTo`, or ids drawn from `visibleDeviceIds`).
 */
function withReadState<Extra extends Record<string, SQL> = Record<never, never>>(
  tx: Tx,
  userId: string | SQLWrapper,
  where: SQL | undefined,
  extra?: Extra,
) {
  return tx
    .select({
      ...lifecycleColumns,
      acknowledgedAt: isoTime(alerts.acknowledgedAt),
      resolvedAt: isoTime(alerts.resolvedAt),
      deviceName: devices.deviceName,
      alertType: alerts.alertType,
      alertTitle: alerts.alertTitle,
      alertMessage: alerts.alertMessage,
      recordedAt: isoTime(alerts.recordedAt) as SQL<string>,
      createdAt: isoTime(alerts.createdAt) as SQL<string>,
      isRead: sql<boolean>`(${alertReads.alertId} is not null)`,
      ...(extra as Extra),
    })
    .from(alerts)
    .innerJoin(devices, eq(devices.id, alerts.deviceId))
    .leftJoin(alertReads, and(eq(alertReads.alertId, alerts.id), eq(alertReads.userId, userId)))
    .where(where);
}

/** Alerts of the user's devices (assigned now), with the user's own read state. */
const visibleTo = <Extra extends Record<string, SQL> = Record<never, never>>(
  tx: Tx,
  userId: string | SQLWrapper,
  where?: SQL,
  extra?: Extra,
) => withReadState(tx, userId, and(maySee(userId, alerts.deviceId), where), extra);

/** Which of the optional filters a query has: its text's shape, the key of its prepared statement. */
type FilterShape = { [K in keyof AlertFilters]-?: boolean };

const shapeOf = (f: AlertFilters): FilterShape => ({
  deviceId: f.deviceId !== undefined,
  from: f.from !== undefined,
  to: f.to !== undefined,
  status: f.status !== undefined,
  priority: f.priority !== undefined,
});

/** The filters as conditions on placeholders of their own names (their values bound per call). */
const filterConditions = (has: FilterShape): (SQL | undefined)[] => [
  has.deviceId ? sql`${alerts.deviceId} = ${sql.placeholder('deviceId')}::uuid` : undefined,
  has.from ? sql`${alerts.recordedAt} >= ${sql.placeholder('from')}::timestamptz` : undefined,
  has.to ? sql`${alerts.recordedAt} <= ${sql.placeholder('to')}::timestamptz` : undefined,
  has.status ? eq(alerts.status, sql.placeholder('status')) : undefined,
  has.priority ? eq(alerts.priority, sql.placeholder('priority')) : undefined,
];

/** The filters' values for their placeholders: instants as ISO text, the casts in the statement read them. */
const filterValues = (f: AlertFilters) => ({
  deviceId: f.deviceId,
  from: f.from?.toISOString(),
  to: f.to?.toISOString(),
  status: f.status,
  priority: f.priority,
});

const shapeKey = (has: FilterShape) =>
  Object.entries(has)
    .map(([name, on]) => (on ? name : ''))
    .join('-');

/** Newest first by when it happened; the id breaks ties so keyset paging is exact. */
const newestFirst = [desc(alerts.recordedAt), desc(alerts.id)];
/** The orders of `newestFirst` and of the bell (newest arrival first), as the indexes of migration 0033 hold them. */
const BY_RECORDED = 'recorded_at desc, id desc';
const BY_CREATED = 'created_at desc, recorded_at desc, id desc';

/**
 * `alerts.id in (…)` the first `limit` alerts in `order` (`BY_RECORDED` or `BY_CREATED`) among the
 * devices of `deviceIds` (a subquery of one column, `device_id`) that match `where`: the first
 * `limit` of each device, read from the start of its index, then the first `limit` of those. The
 * cost grows with the devices, not with their alert history: sorting every alert of every device
 * the caller may see took 55 ms of PostgreSQL a call at 100,000 alerts.
 */
const firstOfEachDevice = (deviceIds: SQL, order: string, limit: SQL, where?: SQL) => {
  const by = sql.raw(order);
  return sql`${alerts.id} in (select t.id from ${deviceIds} v
    cross join lateral (select id, created_at, recorded_at from ${alerts}
      where device_id = v.device_id${where ? sql` and ${where}` : sql``} order by ${by} limit ${limit}) t
    order by ${by} limit ${limit})`;
};

/** Each device's newest alert in the order of `BY_CREATED` (migration 0033) and `BY_RECORDED` (0034), as kept. */
const KEPT_NEWEST = {
  [BY_CREATED]: 'c.newest_created_at desc, c.newest_recorded_at desc, c.newest_id desc',
  [BY_RECORDED]: 'c.latest_recorded_at desc, c.latest_id desc',
};

/**
 * Of the devices `userId` may see, the `limit` whose newest alert in `order` is newest, from the
 * counts the migrations keep: the newest `limit` alerts in that order are on these.
 */
const newestDevices = (userId: SQLWrapper, order: keyof typeof KEPT_NEWEST, limit: SQL) =>
  sql`(select c.device_id from ${visibleDeviceIds(userId)} v
    join vw_counts.alert_counts c on c.device_id = v.device_id
    order by ${sql.raw(KEPT_NEWEST[order])} limit ${limit})`;

/**
 * What is new to a carer: the newest arrivals, so an SOS a device buffered for ten minutes still
 * lands on top (history pages keep device time); alerts stored together, newest device time first.
 * Asked on every signed-in page (the header's bell): one statement per `limitTier`, made once a
 * database, its LIMIT written into the text. Bound, the limits left PostgreSQL planning it afresh
 * on every call (0.4 ms of planning to 0.1-0.15 ms of running, for a user of 3 devices or of 200).
 */
const latestList = (db: Db, _key: string, tier: number) => {
  const userId = sql.placeholder('userId');
  const limit = sql`${writtenLimit(tier)}`;
  // The ids come from the visible devices alone: checking each alert's device again cost a fifth
  // of PostgreSQL's time for this statement, for a user of 200 devices.
  return flatRows(
    withReadState(db, userId, firstOfEachDevice(newestDevices(userId, BY_CREATED, limit), BY_CREATED, limit))
      .orderBy(desc(alerts.createdAt), ...newestFirst)
      .limit(writtenLimit(tier))
      .prepare(quickUpTo(`list_latest_alerts_${tier}`, tier)),
  );
};

export const listLatest = async (db: Db, userId: string, count: number): Promise<VisibleAlert[]> => {
  const tier = limitTier(count);
  return (await onceForKey(db, latestList, String(tier), tier).execute({ userId })).slice(0, count);
};

export interface Cursor {
  recordedAt: Date;
  id: string;
  /** With the priority order: the last alert's priority rank (0 high, 1 medium, 2 low). */
  rank?: number;
}

/** 0 for high, 1 for medium, 2 for low: the priority order. */
const rankOf = sql<number>`(case ${alerts.priority} when 'high' then 0 when 'medium' then 1 else 2 end)`;

/** Every unresolved alert of the user's devices: highest priority first, newest first within one. */
export const listOpen = async (tx: Tx, userId: string, limit: number): Promise<VisibleAlert[]> =>
  visibleTo(tx, userId, sql`${alerts.status} <> 'resolved'`)
    .orderBy(rankOf, ...newestFirst)
    .limit(limit);

/**
 * The total and unread count with no filter but the device (the bell's count, the page's first
 * view), from the counts migration 0033's triggers keep: one row of each per device seen, whatever
 * its history (counting the rows took 32 ms of PostgreSQL a call at 100,000 alerts). As an array,
 * `[total, unread]`, so that it can be one column of the page's statement (`pageStatement`).
 */
const keptCounts = (userId: SQLWrapper, one: boolean) =>
  sql<
    [number, number]
  >`(select array[coalesce(sum(c.n), 0)::int, coalesce(sum(c.n - coalesce(r.n, 0)), 0)::int]
      from ${visibleDeviceIds(userId)} v
      join vw_counts.alert_counts c on c.device_id = v.device_id
      left join vw_counts.alert_read_counts r on r.device_id = v.device_id and r.user_id = ${userId}::uuid
      ${one ? sql`where v.device_id = ${sql.placeholder('deviceId')}::uuid` : sql``})`;

/** Whether the counts of `has` are kept ones (`keptCounts`): no filter but the device. */
const countsKept = (has: FilterShape) => !has.from && !has.to && !has.status && !has.priority;

const keptCountsStatement = (one: boolean) =>
  preparedRows(
    quickRead(`alerts_kept_counts${one ? '_device' : ''}`),
    sql`select ${keptCounts(sql.placeholder('userId'), one)} as counts`,
    z.object({ counts: z.tuple([z.number(), z.number()]) }),
  );
const allKept = keptCountsStatement(false);
const oneKept = keptCountsStatement(true);

interface PageShape {
  filters: FilterShape;
  cursor: boolean;
  byPriority: boolean;
  /** The LIMIT written into the text (`limitTier`). */
  tier: number;
}

/**
 * One statement per shape of the alert page, made once a database: building the query with drizzle
 * on each call (its text, then a hash of it to name the statement) was a quarter of the server's
 * CPU on a page of 20.
 */
const pageStatement = (db: Db, key: string, shape: PageShape, named: boolean) => {
  const userId = sql.placeholder('userId');
  const after = sql`(${alerts.recordedAt}, ${alerts.id}) < (${sql.placeholder('cursorAt')}::timestamptz, ${sql.placeholder('cursorId')}::uuid)`;
  const rank = sql`${sql.placeholder('cursorRank')}::int`;
  const keyset = shape.cursor
    ? shape.byPriority
      ? sql`(${rankOf} > ${rank} or (${rankOf} = ${rank} and ${after}))`
      : after
    : undefined;
  const where = and(...filterConditions(shape.filters), keyset);
  const limit = sql`${writtenLimit(shape.tier)}`;
  // The first page with no filter is on the devices whose newest alerts are newest; any other page
  // may be on any visible device.
  const first = !shape.cursor && !Object.values(shape.filters).some(Boolean);
  const devices = first ? newestDevices(userId, BY_RECORDED, limit) : visibleDeviceIds(userId);
  // Kept counts ride along on every row (an init plan: worked out once), saving a second statement.
  const counts: Record<string, SQL> = countsKept(shape.filters)
    ? { counts: keptCounts(userId, shape.filters.deviceId) }
    : {};
  // By priority, each device's alerts are sorted whole: no index holds that order. Otherwise the
  // ids come from the visible devices alone (as `listLatest`'s). A first page with no filter but
  // the device is a quick read (`quickUpTo`): filters may pass over much of a device's history
  // before its rows are found, and a later page reads up to a page from every device seen.
  const quick = !shape.byPriority && !shape.cursor && countsKept(shape.filters);
  return flatRows(
    (shape.byPriority
      ? visibleTo(db, userId, where, counts)
      : withReadState(db, userId, firstOfEachDevice(devices, BY_RECORDED, limit, where), counts)
    )
      .orderBy(...(shape.byPriority ? [rankOf, ...newestFirst] : newestFirst))
      .limit(writtenLimit(shape.tier))
      .prepare(
        statementName(quick ? quickUpTo(`alerts_page_${key}`, shape.tier) : `alerts_page_${key}`, named),
      ),
  );
};

export interface AlertPageRows {
  rows: VisibleAlert[];
  total: number;
  unread: number;
}

/**
 * Up to `limit` alerts after `cursor` that match `filters`, newest first (or by priority), with the
 * total and unread count of `filters` (not of the cursor). Counts kept by the migrations come with
 * the rows, in one statement; others, or for a page past the end, from a second (`countVisible`).
 */
export async function listPage(
  db: Db,
  userId: string,
  filters: AlertFilters,
  cursor: Cursor | undefined,
  limit: number,
  byPriority = false,
): Promise<AlertPageRows> {
  const shape = {
    filters: shapeOf(filters),
    cursor: cursor !== undefined,
    byPriority,
    tier: limitTier(limit),
  };
  const key = `${shapeKey(shape.filters)}_${shape.cursor ? 'c' : ''}${byPriority ? 'p' : ''}_${shape.tier}`;
  const page = () =>
    onceForKey(db, pageStatement, key, shape).execute({
      userId,
      ...filterValues(filters),
      cursorAt: cursor?.recordedAt.toISOString(),
      cursorId: cursor?.id,
      cursorRank: cursor?.rank ?? 0,
    }) as Promise<(VisibleAlert & { counts?: [number, number] })[]>;
  if (!countsKept(shape.filters)) {
    const [rows, counts] = await Promise.all([page(), countVisible(db, userId, filters)]);
    return { rows: rows.slice(0, limit), ...counts };
  }
  const rows = await page();
  const carried = rows[0]?.counts;
  const counts = carried
    ? { total: carried[0], unread: carried[1] }
    : await countVisible(db, userId, filters);
  return { rows: rows.slice(0, limit), ...counts };
}

/** The total and unread count of one filter shape, made once a database. */
const countStatement = (db: Db, key: string, has: FilterShape, named: boolean) => {
  const userId = sql.placeholder('userId');
  return flatRows(
    db
      .select({
        total: sql<number>`count(*)::int`,
        unread: sql<number>`(count(*) filter (where ${alertReads.alertId} is null))::int`,
      })
      .from(alerts)
      .leftJoin(alertReads, and(eq(alertReads.alertId, alerts.id), eq(alertReads.userId, userId)))
      .where(and(maySee(userId, alerts.deviceId), ...filterConditions(has)))
      .prepare(statementName(`alerts_count_${key}`, named)),
  );
};

export async function countVisible(db: Db, userId: string, filters: AlertFilters) {
  const has = shapeOf(filters);
  if (countsKept(has)) {
    const [row] = await (has.deviceId ? oneKept : allKept)(db, { userId, deviceId: filters.deviceId });
    const [total, unread] = row?.counts ?? [0, 0];
    return { total, unread };
  }
  const [row] = await onceForKey(db, countStatement, shapeKey(has), has).execute({
    userId,
    ...filterValues(filters),
  });
  return { total: row?.total ?? 0, unread: row?.unread ?? 0 };
}

/** Mark as read for this user only the given alerts of their devices not read yet; returns those ids. */
export async function markRead(tx: Tx, userId: string, alertIds: string[]): Promise<string[]> {
  if (alertIds.length === 0) return [];
  const rows = await rawRows(
    tx,
    sql`insert into ${alertReads} (alert_id, user_id)
      select a.id, ${userId}::uuid from ${alerts} a
      where a.id = any(${sql.param(alertIds)}::uuid[]) and ${maySee(userId, sql`a.device_id`)}
      on conflict do nothing
      returning alert_id::text`,
    z.object({ alert_id: z.string() }),
  );
  return rows.map((r) => r.alert_id);
}
