import type { AuditEntry, AuditPage, AuditQuery } from '@vitalwatch/shared';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Db } from '../../db/index.ts';
import { isMissingPartition, type TimePartitions } from '../../db/partitions.ts';
import { cursorOf, insertAuditEvent, listAuditEvents, type NewAuditEvent } from './repository.ts';

/** What a route knows of an action; who and from where come from the request. */
export type AuditFact = Omit<NewAuditEvent, 'ip' | 'actorId' | 'outcome'> & {
  outcome?: NewAuditEvent['outcome'];
  /** Defaults to the signed-in caller. */
  actorId?: string | null;
};

/**
 * The audit log (`ctx.audit`): routes append one entry per security-relevant action once it has
 * happened, and failed sign-ins. An entry that cannot be written (the database away) is logged as
 * an error with everything it held, and the action's answer stands: the action is done.
 */
export class AuditLog {
  constructor(
    private readonly db: Db,
    private readonly partitions: TimePartitions,
    private readonly log: FastifyBaseLogger,
  ) {}

  async record(request: FastifyRequest, fact: AuditFact): Promise<void> {
    const entry: NewAuditEvent = {
      ...fact,
      outcome: fact.outcome ?? 'success',
      actorId: fact.actorId === undefined ? (request.auth?.userId ?? null) : fact.actorId,
      ip: request.ip,
    };
    try {
      await insertAuditEvent(this.db, entry).catch(async (err: unknown) => {
        if (!isMissingPartition(err)) throw err;
        // A month the maintenance timer has not made yet (the clock jumped, a long-idle process).
        const now = new Date();
        await this.partitions.ensure(now, now);
        await insertAuditEvent(this.db, entry);
      });
    } catch (err) {
      this.log.error({ err, audit: entry }, 'audit event not recorded');
    }
  }

  async list(query: AuditQuery): Promise<AuditPage> {
    const rows = await listAuditEvents(this.db, query);
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      entries: page.map(
        (r): AuditEntry => ({
          id: r.id,
          at: r.at.toISOString(),
          action: r.action,
          outcome: r.outcome,
          actorId: r.actor_id,
          actorName: r.actor_name,
          targetType: r.target_type,
          targetId: r.target_id,
          ip: r.ip,
          detail: r.detail,
        }),
      ),
      nextBefore: rows.length > query.limit && last ? cursorOf(last) : null,
    };
  }
}
