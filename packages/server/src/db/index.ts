import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { withTimeout } from '../lib/time-limit.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { PlanRoutingPool } from './plan-routing-pool.ts';
import * as schema from './schema.ts';
import { GENERIC_PLAN, ServerPGlite, type ServerPGliteOptions } from './server-pglite.ts';

export type Schema = typeof schema;
/** One type for both drivers: PGlite (embedded) and node-postgres (server). */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction or the database itself; repositories accept either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Apply committed migrations; on PostgreSQL under an advisory lock so concurrent starts are safe.
   * `folder`: another migrations folder (a restore first stops at the backup's schema version).
   */
  migrate(folder?: string): Promise<void>;
  /** Answers when the database answers a query; rejects after PING_TIMEOUT_MS (a dead network never answers). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** `/readyz` must answer within 2 s: a database that has not answered by then is down. */
export const PING_TIMEOUT_MS = 1500;

/**
 * No wait on PostgreSQL is unbounded. A connection is got within 5 s or refused. A statement runs
 * at most 15 s (server side). An answer that never comes (packets dropped) fails the query after
 * 20 s (client side). A transaction left idle is ended after 30 s. Migrations run on a pool of
 * their own without the statement limit: moving a large table takes longer.
 */
const POOL_TIMEOUTS = {
  connectionTimeoutMillis: 5_000,
  statement_timeout: 15_000,
  query_timeout: 20_000,
  idle_in_transaction_session_timeout: 30_000,
  keepAlive: true,
};

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
/** Arbitrary, fixed: "VW" + "MIGR". */
const MIGRATION_LOCK_KEY = 0x56574d49;

export interface DatabaseOptions {
  databaseUrl: string | undefined;
  /** PGlite data directory, or 'memory'. */
  pgliteDir: string;
  poolSize?: number;
  /** A PGlite data directory dump (`dumpDataDir`) to start from instead of an empty cluster. */
  pgliteLoad?: Blob;
  /**
   * How long the client waits for one query's answer on PostgreSQL (default 20 s, for requests).
   * The backup tools give a whole-table scan longer (they set the server's own limit per query).
   * On PGlite, the longest a statement may run (default `STATEMENT_LIMIT_MS`).
   */
  queryTimeoutMs?: number;
  /** Told of a fault the database recovers from by itself (PGlite's thread crashed and is started again). */
  onFault?: (message: string) => void;
}

export async function createDatabase(opts: DatabaseOptions): Promise<Database> {
  return opts.databaseUrl
    ? createPostgres(opts.databaseUrl, opts.poolSize ?? 20, opts.queryTimeoutMs)
    : createPglite(opts);
}

async function createPostgres(url: string, max: number, queryTimeoutMs?: number): Promise<Database> {
  const pool = new PlanRoutingPool(
    {
      connectionString: url,
      max,
      idleTimeoutMillis: 30_000,
      ...POOL_TIMEOUTS,
      ...(queryTimeoutMs ? { query_timeout: queryTimeoutMs } : {}),
    },
    Math.max(2, Math.ceil(max / 4)),
    Math.max(1, Math.round(max / 10)),
  );
  const db = drizzleNodePg({ client: pool, schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    async migrate(folder = migrationsFolder) {
      const lockClient = await pool.connect().catch((err: Error) => {
        const { hostname, port } = new URL(url);
        throw new Error(
          `cannot reach the PostgreSQL server at ${hostname}:${port || 5432} (DATABASE_URL): ${err.message}`,
        );
      });
      try {
        await lockClient.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        const migrationPool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 10_000 });
        migrationPool.on('error', () => {});
        try {
          await migrateNodePg(drizzleNodePg({ client: migrationPool, schema }), { migrationsFolder: folder });
        } finally {
          await migrationPool.end();
        }
      } finally {
        await lockClient.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
        lockClient.release();
      }
    },
    async ping() {
      // Both pools: the marked statements' connections start with options of their own.
      await withTimeout(
        Promise.all([db.execute(sql`select 1`), db.execute(sql.raw(`${GENERIC_PLAN}select 1`))]),
        PING_TIMEOUT_MS,
        'database ping',
      );
    },
    async close() {
      await pool.end();
    },
  };
}

/** A PGlite on its own thread, with the extensions the migrations create (see `ServerPGlite`). */
export const newPglite = (
  options: Omit<ServerPGliteOptions, 'onThreadEnded'> & Pick<DatabaseOptions, 'onFault'> = {},
) =>
  new ServerPGlite({
    ...options,
    onThreadEnded: (err, restarting) =>
      options.onFault?.(
        `the embedded database's thread ended (${err.message}); ${restarting ? 'starting it again on its data directory' : 'its database was in memory and is lost'}`,
      ),
  });

/** Drizzle over a `ServerPGlite`: the driver's PGlite type, of which it uses `query` and `transaction`. */
export const drizzleOverPglite = (client: ServerPGlite) =>
  drizzlePglite({ client: client as unknown as PGlite, schema });

async function createPglite(opts: DatabaseOptions): Promise<Database> {
  const dir = opts.pgliteDir;
  const releaseLock = dir === 'memory' ? () => {} : lockDataDir(dir);
  const client = newPglite({
    dataDir: dir === 'memory' ? undefined : dir,
    loadDataDir: opts.pgliteLoad,
    onFault: opts.onFault,
    statementLimitMs: opts.queryTimeoutMs,
  });
  await client.waitReady;
  const db = drizzleOverPglite(client) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    async migrate(folder = migrationsFolder) {
      // As on PostgreSQL, where migrations run on a pool without the statement limit.
      const limit = client.statementLimitMs;
      client.statementLimitMs = 0;
      try {
        await migratePglite(drizzleOverPglite(client), { migrationsFolder: folder });
      } finally {
        client.statementLimitMs = limit;
      }
    },
    async ping() {
      await withTimeout(db.execute(sql`select 1`), PING_TIMEOUT_MS, 'database ping');
    },
    async close() {
      await client.close();
      releaseLock();
    },
  };
}
