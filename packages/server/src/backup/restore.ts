import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database, Tx } from '../db/index.ts';
import { TIME_PARTITIONED } from '../db/partitions.ts';
import { rawRows } from '../db/raw-rows.ts';
import { VAPID_KEYS_FILE } from '../push-delivery/vapid-keys.ts';
import {
  currentSchemaVersion,
  ident,
  MIGRATIONS_FOLDER,
  readJournal,
  type SchemaVersion,
} from './catalog.ts';
import { BackupFileError } from './crypto.ts';
import { type BackupHeader, type BackupKeys, openBackup, verifyBackup } from './format.ts';

/** Rows per INSERT, and at most this many bytes of JSON: bounded memory whatever the file's size. */
const BATCH_ROWS = 2000;
const BATCH_BYTES = 4 * 1024 * 1024;

export class RestoreRefused extends Error {}

export interface RestoreOptions {
  /** Opens the file anew: it is read twice, once to check it whole and once to write it. */
  source: () => AsyncIterable<Buffer> | string;
  passphrase: string | undefined;
  /** Where the server keeps its keys (DATA_DIR): the backup's are written there. Tests leave it out. */
  dataDir?: string;
  onProgress?: (p: { phase: 'verify' | 'write'; rows: number; totalRows: number }) => void;
}

export interface RestoreResult {
  header: BackupHeader;
  /** Rows per table in the target once migrations ran, beside those the file held. */
  counts: { table: string; expected: number; actual: number }[];
}

/**
 * Restore a backup into an empty database: check the whole file first (nothing is written from a
 * truncated or corrupted one), bring the schema to the backup's version, write every row in one
 * transaction, set the sequences past the restored ids, then run the newer migrations.
 */
export async function restoreBackup(database: Database, opts: RestoreOptions): Promise<RestoreResult> {
  const header = await verifyBackup(opts.source, opts.passphrase, (rows, h) =>
    opts.onProgress?.({ phase: 'verify', rows, totalRows: rowsIn(h) }),
  );
  const totalRows = rowsIn(header);
  const journal = readJournal();
  const known = journal.find((e) => e.tag === header.schema.tag && e.when === header.schema.when);
  if (!known) {
    throw new RestoreRefused(
      `the backup's schema (${header.schema.tag}) is newer than this version of VitalWatch knows (${journal.at(-1)?.tag}): upgrade first`,
    );
  }
  await refuseNonEmpty(database);
  const keyFiles = opts.dataDir ? keyFilesFor(opts.dataDir, header.keys) : [];
  const current = await currentSchemaVersion(database.db);
  if (!current || current.when < header.schema.when) await migrateTo(database, header.schema);

  const counts = await database.db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local statement_timeout = '30min'`));
    await makePartitions(tx, header);
    const columns = await targetColumns(tx);
    const reader = await openBackup(opts.source(), opts.passphrase);
    let batch: string[] = [];
    let bytes = 0;
    let table = '';
    let written = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      const wanted = header.tables.find((t) => t.name === table)?.columns ?? [];
      const have = columns.get(table);
      if (!have) throw new RestoreRefused(`the target has no table ${table}`);
      await insertRows(
        tx,
        table,
        wanted.filter((c) => have.has(c)),
        batch,
      );
      written += batch.length;
      opts.onProgress?.({ phase: 'write', rows: written, totalRows });
      batch = [];
      bytes = 0;
    };
    for await (const row of reader.rows()) {
      if (row.table !== table) {
        await flush();
        table = row.table;
      }
      batch.push(row.json);
      bytes += row.json.length;
      if (batch.length >= BATCH_ROWS || bytes >= BATCH_BYTES) await flush();
    }
    await flush();
    await setSequences(tx, header);
    return written;
  });
  if (counts !== totalRows) throw new Error(`restored ${counts} rows of ${totalRows}`);
  await database.migrate();
  for (const { file, text } of keyFiles) writeFileSync(file, text, { mode: 0o600 });
  return { header, counts: await compareCounts(database, header) };
}

/** Rows given as `row_to_json` texts, into `table`'s `columns` (ids as they were: OVERRIDING SYSTEM VALUE). */
export async function insertRows(tx: Tx, table: string, columns: string[], rows: string[]): Promise<void> {
  const cols = columns.map(ident).join(', ');
  await tx.execute(
    sql`${sql.raw(`insert into ${ident(table)} (${cols}) overriding system value select ${cols} from json_populate_recordset(null::${ident(table)}, `)}${`[${rows.join(',')}]`}::json)`,
  );
}

const rowsIn = (header: BackupHeader) => header.tables.reduce((n, t) => n + t.rows, 0);

/**
 * The key files to write into DATA_DIR. One that is there already with other keys is refused
 * (its two-factor secrets and push subscriptions would not open with the restored ones).
 */
function keyFilesFor(dataDir: string, keys: BackupKeys): { file: string; text: string }[] {
  const files = [
    { file: path.join(dataDir, 'secrets.json'), text: JSON.stringify({ jwtSecret: keys.jwtSecret }) },
  ];
  if (keys.vapid) files.push({ file: path.join(dataDir, VAPID_KEYS_FILE), text: JSON.stringify(keys.vapid) });
  mkdirSync(dataDir, { recursive: true });
  return files.filter(({ file, text }) => {
    if (!existsSync(file)) return true;
    if (readFileSync(file, 'utf8') === text) return false;
    throw new RestoreRefused(
      `${file} holds other keys than the backup's: move it away (or restore into an empty DATA_DIR)`,
    );
  });
}

/** A target with any row in any table is not empty: a restore never mixes two databases. */
export async function refuseNonEmpty(database: Database): Promise<void> {
  const tables = await rawRows(
    database.db,
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition`,
    z.object({ name: z.string() }),
  );
  for (const { name } of tables) {
    const [row] = await rawRows(
      database.db,
      sql.raw(`select exists (select from ${ident(name)}) as any`),
      z.object({ any: z.boolean() }),
    );
    if (row?.any) {
      throw new RestoreRefused(
        `the target database is not empty (table ${name} has rows): restore into an empty DATA_DIR or an empty PostgreSQL database`,
      );
    }
  }
}

/** Run the migrations up to `version` only: the backup's rows fit the schema they were read from. */
export async function migrateTo(database: Database, version: SchemaVersion): Promise<void> {
  const folder = mkdtempSync(path.join(tmpdir(), 'vw-restore-migrations-'));
  try {
    mkdirSync(path.join(folder, 'meta'));
    for (const file of readdirSync(MIGRATIONS_FOLDER)) {
      if (file.endsWith('.sql')) copyFileSync(path.join(MIGRATIONS_FOLDER, file), path.join(folder, file));
    }
    const entries = readJournal().filter((e) => e.when <= version.when);
    writeFileSync(
      path.join(folder, 'meta', '_journal.json'),
      JSON.stringify({
        version: '7',
        dialect: 'postgresql',
        entries: entries.map((e) => ({ ...e, breakpoints: true })),
      }),
    );
    await database.migrate(folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * The partitions the backup had, made the way the server makes them (the audit log's keep their
 * TRUNCATE trigger, made by its own function).
 */
export async function makePartitions(tx: Tx, header: Pick<BackupHeader, 'partitions'>): Promise<void> {
  for (const part of header.partitions) {
    const [exists] = await rawRows(
      tx,
      sql`select to_regclass(${`public.${ident(part.name)}`}) is not null as present`,
      z.object({ present: z.boolean() }),
    );
    if (exists?.present) continue;
    const timed = TIME_PARTITIONED.find((t) => t.table === part.parent);
    if (timed && part.from) {
      await tx.execute(
        sql`select ensure_time_partitions(${part.parent}, ${timed.period}, ${part.from}::timestamptz, ${part.from}::timestamptz)`,
      );
    } else {
      await tx.execute(
        sql.raw(`create table ${ident(part.name)} partition of ${ident(part.parent)} ${part.bound}`),
      );
    }
  }
}

export async function targetColumns(tx: Tx): Promise<Map<string, Set<string>>> {
  const rows = await rawRows(
    tx,
    sql`select c.relname as table, a.attname as column from pg_attribute a
        join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''`,
    z.object({ table: z.string(), column: z.string() }),
  );
  const map = new Map<string, Set<string>>();
  for (const { table, column } of rows) map.set(table, (map.get(table) ?? new Set()).add(column));
  return map;
}

/** Every sequence where the source's was: ids given after the restore never collide with restored ones. */
export async function setSequences(tx: Tx, header: Pick<BackupHeader, 'sequences'>): Promise<void> {
  for (const seq of header.sequences) {
    if (seq.lastValue === null) continue;
    await tx.execute(
      sql`select setval(${`public.${ident(seq.name)}`}, ${seq.lastValue}::int8) where to_regclass(${`public.${ident(seq.name)}`}) is not null`,
    );
  }
}

async function compareCounts(database: Database, header: BackupHeader): Promise<RestoreResult['counts']> {
  const counts: RestoreResult['counts'] = [];
  for (const t of header.tables) {
    const [row] = await rawRows(
      database.db,
      sql.raw(`select count(*)::int8 as n from ${ident(t.name)}`),
      z.object({ n: z.coerce.number() }),
    );
    counts.push({ table: t.name, expected: t.rows, actual: row?.n ?? 0 });
  }
  return counts;
}

export { BackupFileError };
