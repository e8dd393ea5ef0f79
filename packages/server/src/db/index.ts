import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** One type for both drivers: PGlite (embedded) and node-postgres (server). */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction or the database itself; repositories accept either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Apply committed migrations; on PostgreSQL under an advisory lock so concurrent starts are safe. */
  migrate(): Promise<void>;
  /** Answers when the database answers a query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
/** Arbitrary, fixed: "VW" + "MIGR". */
const MIGRATION_LOCK_KEY = 0x56574d49;

export interface DatabaseOptions {
  databaseUrl: string | undefined;
  /** PGlite data directory, or 'memory'. */
  pgliteDir: string;
  poolSize?: number;
}

export async function createDatabase(opts: DatabaseOptions): Promise<Database> {
  return opts.databaseUrl
    ? createPostgres(opts.databaseUrl, opts.poolSize ?? 20)
    : createPglite(opts.pgliteDir);
}

async function createPostgres(url: string, max: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  // An idle client's error (server restart) must not crash the process; the next query reports it.
  pool.on('error', () => {});
  const db = drizzleNodePg({ client: pool, schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    async migrate() {
      const lockClient = await pool.connect().catch((err: Error) => {
        const { hostname, port } = new URL(url);
        throw new Error(
          `cannot reach the PostgreSQL server at ${hostname}:${port || 5432} (DATABASE_URL): ${err.message}`,
        );
      });
      try {
        await lockClient.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migrateNodePg(drizzleNodePg({ client: pool, schema }), { migrationsFolder });
      } finally {
        await lockClient.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
        lockClient.release();
      }
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    async close() {
      await pool.end();
    },
  };
}

async function createPglite(dir: string): Promise<Database> {
  const releaseLock = dir === 'memory' ? () => {} : lockDataDir(dir);
  const client = dir === 'memory' ? new PGlite() : new PGlite(dir);
  await client.waitReady;
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    async migrate() {
      await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder });
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    async close() {
      await client.close();
      releaseLock();
    },
  };
}

/** PGlite is single-process: refuse clearly when another live process holds the directory. */
function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const lockFile = path.join(dir, '..', 'pglite.lock');
  if (existsSync(lockFile)) {
    const pid = Number(readFileSync(lockFile, 'utf8'));
    if (pid && pid !== process.pid && isAlive(pid)) {
      throw new Error(
        `The embedded database in ${dir} is in use by process ${pid}. Stop it, use another DATA_DIR, or set DATABASE_URL.`,
      );
    }
  }
  writeFileSync(lockFile, String(process.pid));
  return () => rmSync(lockFile, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
