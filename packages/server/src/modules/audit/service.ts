import type { AuditEntry, AuditPage, AuditQuery } from '@vitalwatch/shared';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Db } from '../../db/index.ts';
import { isMissingPartition, type TimePartitions } from '../../db/partitions.ts';
import { DomainError, type ErrorCode } from '../../errors.ts';
import {
  countAuditEvents,
  cursorOf,
  insertAuditEvent,
  listAuditEvents,
  type NewAuditEvent,
} from './repository.ts';

/** What a route knows of an action; who and from where come from the request. */
export type AuditFact = Omit<NewAuditEvent, 'ip' | 'actorId' | 'outcome'> & {
  outcome?: NewAuditEvent['outcome'];
  /** Defaults to the signed-in caller. */
  actorId?: string | null;
};

/** Errors that say "not allowed" (rather than "not found" or "bad input"): refused actions are recorded. */
const REFUSALS: ReadonlySet<ErrorCode> = new Set(['forbidden', 'lastAdmin', 'selfDelete', 'adminHasDevices']);
const isRefusal = (err: unknown): err is DomainError => err instanceof DomainError && REFUSALS.has(err.code);

/** Where the admin API lives: a refusal there (403) is recorded whichever route it was. */
const ADMIN_ROUTES = '/api/v1/admin/';

/**
 * The audit log (`ctx.audit`): routes append one entry per security-relevant action once it has
 * happened, and failed sign-ins. An entry that cannot be written (the database away) is logged as
 * an error with everything it held, and the action's answer stands: the action is done.
 */
export class AuditLog {
  private readonly db: Db;
  private readonly partitions: TimePartitions;
  private readonly log: FastifyBaseLogger;

  constructor(db: Db, partitions: TimePartitions, log: FastifyBaseLogger) {
    this.db = db;
    this.partitions = partitions;
    this.log = log;
  }

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

  /** When `err` refused the action (the last admin, one's own account), record `fact` as failed with why. */
  async refused(request: FastifyRequest, err: unknown, fact: AuditFact): Promise<void> {
    if (!isRefusal(err)) return;
    await this.record(request, {
      ...fact,
      outcome: 'failure',
      detail: { ...fact.detail, reason: err.message },
    });
  }

  /**
   * An `onError` hook: a non-admin (or anyone else refused) on an admin route is recorded as
   * `access-denied` with the route, before the 403 is sent.
   */
  readonly recordAdminRefusal = async (request: FastifyRequest, _reply: unknown, err: unknown) => {
    const route = request.routeOptions.url;
    if (!route?.startsWith(ADMIN_ROUTES) || !isRefusal(err) || err.code !== 'forbidden') return;
    await this.record(request, {
      action: 'access-denied',
      outcome: 'failure',
      detail: { route: `${request.method} ${route}`, role: request.auth?.role ?? null },
    });
  };

  async list(query: AuditQuery): Promise<AuditPage> {
    // The whole match is counted for the first page only: later pages would pay for it again.
    const [rows, total] = await Promise.all([
      listAuditEvents(this.db, query),
      query.before ? null : countAuditEvents(this.db, query),
    ]);
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
          targetName: r.target_name,
          ip: r.ip,
          detail: r.detail,
        }),
      ),
      total,
      nextBefore: rows.length > query.limit && last ? cursorOf(last) : null,
    };
  }
}
