import { createWriteStream, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { BuiltApp } from '../src/app.ts';
import { writeBackup } from '../src/backup/snapshot.ts';
import { createDatabase, type Database } from '../src/db/index.ts';
import { rawRows } from '../src/db/raw-rows.ts';
import { createScratchDatabase, type DbTarget } from './helpers.ts';

/** A fresh file path in a directory of its own. */
export const scratchFile = (name = 'backup.vwb') =>
  path.join(mkdtempSync(path.join(tmpdir(), 'vw-backup-')), name);

/** Back up the app's database to `file`, its keys included, as the admin route does. */
export async function backupTo(built: BuiltApp, file: string, passphrase?: string) {
  const { database, config } = built.ctx;
  return writeBackup(
    { database, keys: { jwtSecret: config.jwtSecret, vapid: null } },
    createWriteStream(file),
    passphrase,
  );
}

/** An empty, unmigrated database of the target's kind: where a restore goes. */
export async function emptyDatabase(
  target: DbTarget,
): Promise<{ database: Database; drop(): Promise<void> }> {
  if (target.name === 'pglite') {
    const database = await createDatabase({ databaseUrl: undefined, pgliteDir: 'memory' });
    // The app built on it closes it; closing again is harmless.
    return { database, drop: () => database.close().catch(() => {}) };
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const scratch = await createScratchDatabase(url);
  const database = await createDatabase({ databaseUrl: scratch.url, pgliteDir: 'memory', poolSize: 4 });
  return {
    database,
    drop: async () => {
      await database.close().catch(() => {});
      await scratch.drop();
    },
  };
}

/** Rows per public table (partitions counted through their parent). */
export async function tableCounts(database: Database): Promise<Record<string, number>> {
  const tables = await rawRows(
    database.db,
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by 1`,
    z.object({ name: z.string() }),
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = await rawRows(
      database.db,
      sql.raw(`select count(*)::int8 as n from "${name}"`),
      z.object({ n: z.coerce.number() }),
    );
    counts[name] = row?.n ?? 0;
  }
  return counts;
}

/**
 * The devices' and users' counts migration 0027's triggers keep (the admin fleet's '{n} found'), and
 * the sum of each device's users migration 0035's keep.
 */
export async function keptCounts(
  database: Database,
): Promise<{ devices?: number; users?: number; device_users?: number }> {
  const rows = await rawRows(
    database.db,
    sql`select table_name as name, n from vw_counts.row_counts
        union all select 'device_users', coalesce(sum(n), 0) from vw_counts.device_user_counts order by 1`,
    z.object({ name: z.string(), n: z.coerce.number() }),
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.n]));
}
