import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database, Tx } from '../db/index.ts';
import { rawRows } from '../db/raw-rows.ts';
import {
  currentSchemaVersion,
  ident,
  listPartitions,
  listSequences,
  listTables,
  type TableInfo,
} from './catalog.ts';
import { encryptChunks, FORMAT_VERSION, newPreamble } from './crypto.ts';
import { type BackupHeader, type BackupKeys, controlLine, LineHasher } from './format.ts';

/** Rows per FETCH: a few hundred kilobytes of JSON, so memory stays flat whatever the table's size. */
export const FETCH_ROWS = 2000;

export interface SnapshotProgress {
  table: string;
  rows: number;
  totalRows: number;
}

export interface SnapshotResult {
  header: BackupHeader;
  rows: number;
  bytes: number;
}

/**
 * Read every table in one REPEATABLE READ, read-only transaction (one consistent snapshot while
 * ingestion goes on) and hand its lines to `emit`, which applies backpressure by its promise.
 * On PGlite (one connection) writes wait while the snapshot is read; on PostgreSQL they go on.
 */
export async function readSnapshot(
  database: Database,
  keys: BackupKeys,
  emit: (text: string) => Promise<void>,
  onProgress?: (p: SnapshotProgress) => void,
): Promise<{ header: BackupHeader; rows: number }> {
  return database.db.transaction(async (tx) => {
    await tx.execute(sql.raw('set transaction isolation level repeatable read, read only'));
    // Timestamps written the same whichever zone the server is set to.
    await tx.execute(sql.raw(`set local timezone = 'UTC'`));
    // The 15 s statement limit is for requests; a count of a large table takes longer (the
    // embedded database keeps this limit itself: see ServerPGlite).
    await tx.execute(sql.raw(`set local statement_timeout = '30min'`));
    if (database.kind === 'postgres')
      await tx.execute(sql.raw(`set local idle_in_transaction_session_timeout = '5min'`));
    const schema = await currentSchemaVersion(tx);
    if (!schema) throw new Error('the database has no schema yet: nothing to back up');
    const tables = await listTables(tx);
    const counted = [];
    for (const t of tables) counted.push({ ...t, rows: await countRows(tx, t.name) });
    const header: BackupHeader = {
      kind: 'header',
      format: FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      source: database.kind,
      schema,
      tables: counted.map(({ name, columns, rows }) => ({ name, columns, rows })),
      partitions: await listPartitions(tx),
      sequences: await listSequences(tx),
      keys,
    };
    const hasher = new LineHasher();
    await emit(hasher.add(controlLine(header)));
    const totalRows = counted.reduce((sum, t) => sum + t.rows, 0);
    let done = 0;
    const rows: Record<string, number> = {};
    for (const table of counted) {
      await emit(hasher.add(controlLine({ kind: 'table', name: table.name })));
      let inTable = 0;
      for await (const batch of tableRows(tx, table)) {
        await emit(hasher.add(batch.text));
        inTable += batch.rows;
        done += batch.rows;
        onProgress?.({ table: table.name, rows: done, totalRows });
      }
      rows[table.name] = inTable;
    }
    await emit(hasher.trailer(rows));
    return { header, rows: done };
  });
}

async function countRows(tx: Tx, table: string): Promise<number> {
  const [row] = await rawRows(
    tx,
    sql.raw(`select count(*)::int8 as n from ${ident(table)}`),
    z.object({ n: z.coerce.number() }),
  );
  return row?.n ?? 0;
}

/** A table's rows in a stable order (`TableInfo.orderBy`), FETCH_ROWS at a time through a cursor. */
export async function* tableRows(tx: Tx, table: TableInfo): AsyncGenerator<{ text: string; rows: number }> {
  const cursor = `backup_${table.name.replace(/\W/g, '_')}`;
  const columns = table.columns.map(ident).join(', ');
  await tx.execute(
    sql.raw(
      `declare ${cursor} no scroll cursor for select row_to_json(r)::text as j from (select ${columns} from ${ident(table.name)} order by ${table.orderBy.map(ident).join(', ')}) r`,
    ),
  );
  for (;;) {
    const batch = await rawRows(
      tx,
      sql.raw(`fetch ${FETCH_ROWS} from ${cursor}`),
      z.object({ j: z.string() }),
    );
    if (batch.length === 0) break;
    yield { text: `${batch.map((r) => r.j).join('\n')}\n`, rows: batch.length };
    if (batch.length < FETCH_ROWS) break;
  }
  await tx.execute(sql.raw(`close ${cursor}`));
}

/**
 * Write a whole backup file to `out`: preamble, then the snapshot's lines gzipped and, with a
 * passphrase, encrypted (see crypto.ts). Resolves once `out` has everything.
 */
export async function writeBackup(
  source: { database: Database; keys: BackupKeys },
  out: Writable,
  passphrase: string | undefined,
  onProgress?: (p: SnapshotProgress) => void,
): Promise<SnapshotResult> {
  const preamble = newPreamble(passphrase);
  const lines = new PassThrough({ highWaterMark: 1024 * 1024 });
  let bytes = 0;
  const piped = pipeline(
    lines,
    createGzip({ level: 6 }),
    async function* (compressed: AsyncIterable<Buffer>) {
      yield preamble.bytes;
      const body = preamble.encryption ? encryptChunks(compressed, preamble) : compressed;
      for await (const chunk of body) {
        bytes += chunk.length;
        yield chunk;
      }
      bytes += preamble.bytes.length;
    },
    out,
  );
  const failed = piped.then(
    () => new Error('the backup stream ended early'),
    (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
  );
  const emit = async (text: string) => {
    if (lines.destroyed) throw await failed;
    if (!lines.write(text)) {
      const drained = once(lines, 'drain').then(() => undefined);
      const stop = await Promise.race([drained, failed]);
      if (stop instanceof Error) throw stop;
    }
  };
  try {
    const { header, rows } = await readSnapshot(source.database, source.keys, emit, onProgress);
    lines.end();
    await piped;
    return { header, rows, bytes };
  } catch (err) {
    lines.destroy(err instanceof Error ? err : new Error(String(err)));
    await piped.catch(() => {});
    throw err;
  }
}
