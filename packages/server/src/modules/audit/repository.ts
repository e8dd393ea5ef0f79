import { type AuditEntry, type AuditQuery, auditEntry } from '@vitalwatch/shared';
import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../../db/index.ts';
import { rawRows } from '../../db/raw-rows.ts';
import { auditEvents, devices, teams, users } from '../../db/schema.ts';

/** One entry to append; `actorName` is looked up from `actorId` when not given. */
export interface NewAuditEvent {
  action: AuditEntry['action'];
  outcome: AuditEntry['outcome'];
  actorId: string | null;
  actorName?: string | null;
  targetType?: AuditEntry['targetType'];
  targetId?: string | null;
  ip: string | null;
  detail?: AuditEntry['detail'];
}

export async function insertAuditEvent(tx: Tx, e: NewAuditEvent): Promise<void> {
  await tx.execute(
    sql`insert into ${auditEvents} (at, action, outcome, actor_id, actor_name, target_type, target_id, ip, detail)
      values (date_trunc('milliseconds', clock_timestamp()), ${e.action}, ${e.outcome}, ${e.actorId}::uuid,
        coalesce(${e.actorName ?? null}::text, (select u.username from ${users} u where u.id = ${e.actorId}::uuid)),
        ${e.targetType ?? null}, ${e.targetId ?? null}, ${e.ip}, ${JSON.stringify(e.detail ?? {})}::jsonb)`,
  );
}

const entryRow = z.object({
  id: z.string(),
  at: z.coerce.date(),
  action: auditEntry.shape.action,
  outcome: auditEntry.shape.outcome,
  actor_id: z.string().nullable(),
  actor_name: z.string().nullable(),
  target_type: auditEntry.shape.targetType,
  target_id: z.string().nullable(),
  target_name: z.string().nullable(),
  ip: z.string().nullable(),
  detail: auditEntry.shape.detail,
});

/** The page cursor: the last entry's time (ms, the precision entries are stored with) and id. */
export const cursorOf = (entry: { at: Date; id: string }) => `${entry.at.getTime()}-${entry.id}`;

function before(cursor: string) {
  const [ms, id] = cursor.split('-');
  return sql`(at, id) < (${new Date(Number(ms)).toISOString()}::timestamptz, ${id}::bigint)`;
}

/**
 * The actor's name as the log shows it: none for someone who closed their account (their entries
 * stay, pseudonymised by id; the log itself is append-only, so this is decided when read).
 */
const shownActorName = sql.raw(`case when e.actor_id is not null and exists (
    select 1 from audit_events c where c.actor_id = e.actor_id and c.action = 'account-close')
  then null else e.actor_name end`);

function auditFilters(q: AuditQuery): SQL[] {
  const where: SQL[] = [];
  if (q.action) where.push(sql`action = ${q.action}`);
  if (q.outcome) where.push(sql`outcome = ${q.outcome}`);
  if (q.actor) where.push(sql`${shownActorName} ilike ${`%${q.actor.replace(/[\\%_]/g, '\\$&')}%`}`);
  if (q.targetId) where.push(sql`target_id = ${q.targetId}`);
  if (q.from) where.push(sql`at >= ${q.from}::timestamptz`);
  if (q.to) where.push(sql`at <= ${q.to}::timestamptz`);
  return where;
}

const whereAll = (where: SQL[]) => (where.length > 0 ? sql`where ${sql.join(where, sql` and `)}` : sql``);

/** Entries matching the filters, all pages together. */
export async function countAuditEvents(tx: Tx, q: AuditQuery): Promise<number> {
  const [row] = await rawRows(
    tx,
    sql`select count(*)::int8 as n from ${auditEvents} e ${whereAll(auditFilters(q))}`,
    z.object({ n: z.coerce.number() }),
  );
  return row?.n ?? 0;
}

/** Newest first, `limit + 1` rows so the caller knows whether an older page exists. */
export async function listAuditEvents(tx: Tx, q: AuditQuery) {
  const where = auditFilters(q);
  if (q.before) where.push(before(q.before));
  return rawRows(
    tx,
    sql`select id::text, at, action, outcome, actor_id::text, ${shownActorName} as actor_name, target_type, target_id, ip, detail,
        case target_type
          when 'device' then (select d.device_name from ${devices} d where d.id::text = target_id)
          when 'user' then (select u.username from ${users} u where u.id::text = target_id)
          when 'team' then (select t.name from ${teams} t where t.id::text = target_id)
        end as target_name
      from ${auditEvents} e
      ${whereAll(where)}
      order by at desc, id desc limit ${q.limit + 1}`,
    entryRow,
  );
}
