import { DEFAULT_RETENTION_DAYS } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Db } from './index.ts';
import { sqlState } from './sql-state.ts';

const DAY_MS = 86_400_000;

/**
 * The time-partitioned tables (migrations 0004 and 0007), the width of one partition and which
 * retention applies. Raw readings: a week, so retention is honoured within a week and a query of any range
 * touches few tables. Rollups are far smaller per reading: months and years.
 */
export const TIME_PARTITIONED = [
  { table: 'health_records', period: 'week', keep: 'raw' },
  { table: 'health_rollups_minute', period: 'month', keep: 'rollups' },
  { table: 'health_rollups_hour', period: 'year', keep: 'rollups' },
  { table: 'audit_events', period: 'month', keep: 'audit' },
] as const;

export interface RetentionDays {
  /** Raw readings (RETENTION_DAYS). */
  raw: number;
  /** Minute and hour rollups (ROLLUP_RETENTION_DAYS). */
  rollups: number;
  /** The audit log (AUDIT_RETENTION_DAYS). */
  audit: number;
}

/** The default retention periods, shared with the web app's help pages (why: see the constant). */
export const DEFAULT_RETENTION: RetentionDays = DEFAULT_RETENTION_DAYS;

export interface MaintenanceResult {
  created: number;
  dropped: string[];
}

/** How far ahead partitions are made, so the ingest path normally never waits for one. */
const AHEAD_DAYS = 21;
/** A partition's DDL needs a brief exclusive lock on its table: never queue behind a long reader for longer. */
const LOCK_TIMEOUT = '5s';

/**
 * "no partition of relation … found for row" (check_violation; these tables have no CHECK
 * constraints of their own): a row outside every partition, such as a buffer replayed from last month.
 */
export const isMissingPartition = (err: unknown): boolean => sqlState(err) === '23514';

/** "must be owner of table …", "permission denied …". */
const isInsufficientPrivilege = (err: unknown): boolean => sqlState(err) === '42501';

/**
 * Partitions by time: made ahead by `maintain` (on a timer) and on demand by `ensure` when a row
 * falls outside them (a device replaying a buffer from last month), and dropped whole once past
 * their retention. All DDL runs in short transactions of its own with a lock time-out, serialised
 * per table across server processes (`ensure_time_partitions` takes an advisory lock).
 */
export class TimePartitions {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  private readonly db: Db;
  readonly retention: RetentionDays;

  constructor(db: Db, retention: RetentionDays) {
    this.db = db;
    this.retention = retention;
  }

  /**
   * `maintain` now and every `intervalMs`; resolves when the first run is over. A failure is
   * logged and tried again next time (meanwhile a row outside every partition makes its own).
   */
  async start(intervalMs: number, log: FastifyBaseLogger): Promise<void> {
    if (this.timer || intervalMs <= 0) return;
    const run = () =>
      (this.running ??= this.maintain()
        .then(({ created, dropped }) => {
          if (created > 0 || dropped.length > 0) log.info({ created, dropped }, 'time partitions maintained');
        })
        .catch((err) => log.error({ err }, 'time partition maintenance failed'))
        .finally(() => {
          this.running = undefined;
        }));
    this.timer = setInterval(run, intervalMs);
    this.timer.unref();
    await run();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Partitions of every time-partitioned table covering [from, to]; returns how many were made. */
  async ensure(from: Date, to: Date): Promise<number> {
    let made = 0;
    for (const { table, period } of TIME_PARTITIONED) {
      made += await this.ddl(
        sql`select ensure_time_partitions(${table}, ${period}, ${from.toISOString()}::timestamptz, ${to.toISOString()}::timestamptz) as n`,
        z.object({ n: z.number() }),
      ).then((rows) => rows[0]?.n ?? 0);
    }
    return made;
  }

  /** Make the partitions of the next weeks and drop those wholly past their retention. */
  async maintain(now: Date = new Date()): Promise<MaintenanceResult> {
    const created = await this.ensure(
      new Date(now.getTime() - DAY_MS),
      new Date(now.getTime() + AHEAD_DAYS * DAY_MS),
    );
    const dropped: string[] = [];
    for (const { table, keep } of TIME_PARTITIONED) {
      const cutoff = this.cutoff(keep, now);
      const rows = await this.ddl(
        sql`select drop_time_partitions_before(${table}, ${cutoff.toISOString()}::timestamptz) as name`,
        z.object({ name: z.string() }),
      ).catch((err: unknown) => {
        // Under the README's role setup the audit log is not the server's to drop: its owner's job does that.
        if (keep === 'audit' && isInsufficientPrivilege(err)) return [];
        throw err;
      });
      dropped.push(...rows.map((r) => r.name));
    }
    return { created, dropped };
  }

  /** The oldest instant `keep` keeps: what is older is dropped with its partition. */
  cutoff(keep: keyof RetentionDays, now: Date = new Date()): Date {
    return new Date(now.getTime() - this.retention[keep] * DAY_MS);
  }

  private async ddl<T>(query: ReturnType<typeof sql>, row: z.ZodType<T>): Promise<T[]> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local lock_timeout = '${LOCK_TIMEOUT}'`));
      const result = await tx.execute(query);
      return z.array(row).parse((result as unknown as { rows: unknown[] }).rows);
    });
  }
}
