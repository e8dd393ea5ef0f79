import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';

/**
 * The audit log: who did what security-relevant thing, from where, when (HIPAA 164.312(b)).
 * Append-only: a trigger refuses every UPDATE and DELETE, and old entries leave only with their
 * whole monthly partition after AUDIT_RETENTION_DAYS. The actor is kept by id and by name, with
 * no foreign key, so deleting an account does not delete what it did.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigint('id', { mode: 'bigint' }).notNull().default(sql`nextval('audit_event_ids')`),
    at: ts('at').notNull().defaultNow(),
    action: text('action').notNull(),
    outcome: text('outcome', { enum: ['success', 'failure'] }).notNull(),
    actorId: uuid('actor_id'),
    actorName: text('actor_name'),
    targetType: text('target_type', { enum: ['user', 'device', 'alert'] }),
    targetId: text('target_id'),
    ip: text('ip'),
    detail: jsonb('detail').notNull().default({}),
  },
  (t) => [index('audit_events_at_idx').on(t.at), index('audit_events_actor_idx').on(t.actorId, t.at)],
);
