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
  readJournal,
  type TableInfo,
} from './catalog.ts';
import {
  insertRows,
  makePartitions,
  migrateTo,
  RestoreRefused,
  refuseNonEmpty,
  setSequences,
  targetColumns,
} from './restore.ts';

/** Rows per batch: one SELECT on the source, one INSERT and checkpoint in one transaction on the target. */
export const MOVE_BATCH_ROWS = 5000;
/** Every row whose text hashes to 0 modulo this is in the verification's checksum: about 1 in 1000. */
const SAMPLE_MODULUS = 1009;

/** Where the move keeps its progress on the target, outside `public` (so no backup or count sees it). */
const CHECKPOINT = 'vitalwatch_move.progress';

export interface MoveProgress {
  table: string;
  rows: number;
  totalRows: number;
  resumed: boolean;
}

export interface MoveVerification {
  table: string;
  source: number;
  target: number;
  sampled: number;
  sourceSum: string;
  targetSum: string;
}

/**
 * Copy every table of `source` (the embedded database, its server stopped) into the empty
 * PostgreSQL database `target`, a batch at a time in key order, each batch committed with its
 * checkpoint: memory stays bounded whatever the size, and a move that was interrupted goes on
 * from its last batch when run again. Then the sequences, the newer migrations and a verification.
 */
export async function moveDatabase(
  source: Database,
  target: Database,
  onProgress?: (p: MoveProgress) => void,
): Promise<MoveVerification[]> {
  const schema = await currentSchemaVersion(source.db);
  if (!schema) throw new RestoreRefused('the source database has no schema: nothing to move');
  if (!readJournal().some((e) => e.tag === schema.tag)) {
    throw new RestoreRefused(
      `the source's schema (${schema.tag}) is newer than this version of VitalWatch knows`,
    );
  }
  const resumed = await hasCheckpoint(target);
  if (!resumed) {
    await refuseNonEmpty(target);
    await migrateTo(target, schema);
    await target.db.execute(sql.raw('create schema vitalwatch_move'));
    await target.db.execute(
      sql.raw(
        `create table ${CHECKPOINT} (name text primary key, last_row text, rows bigint not null, done boolean not null)`,
      ),
    );
  }
  const tables = await listTables(source.db);
  await target.db.transaction((tx) => makePartitionsFrom(source, tx));
  const totalRows = (await Promise.all(tables.map((t) => countOf(source.db, t.name)))).reduce(
    (a, b) => a + b,
    0,
  );
  let moved = 0;
  for (const table of tables) {
    moved = await moveTable(source, target, table, moved, (rows) =>
      onProgress?.({ table: table.name, rows, totalRows, resumed }),
    );
  }
  await target.db.transaction(async (tx) => setSequences(tx, { sequences: await listSequences(source.db) }));
  await target.migrate();
  const verification = [];
  for (const table of tables) verification.push(await verifyTable(source, target, table));
  await target.db.execute(sql.raw('drop schema vitalwatch_move cascade'));
  return verification;
}

async function hasCheckpoint(target: Database): Promise<boolean> {
  const [row] = await rawRows(
    target.db,
    sql`select to_regclass(${CHECKPOINT}) is not null as present`,
    z.object({ present: z.boolean() }),
  );
  return row?.present ?? false;
}

async function makePartitionsFrom(source: Database, tx: Tx): Promise<void> {
  await makePartitions(tx, { partitions: await listPartitions(source.db) });
}

async function countOf(tx: Tx, table: string): Promise<number> {
  const [row] = await rawRows(
    tx,
    sql.raw(`select count(*)::int8 as n from ${ident(table)}`),
    z.object({ n: z.coerce.number() }),
  );
  return row?.n ?? 0;
}

/** One table, from its checkpoint on; returns the rows moved so far in all. */
async function moveTable(
  source: Database,
  target: Database,
  table: TableInfo,
  before: number,
  onRows: (rows: number) => void,
): Promise<number> {
  const [checkpoint] = await rawRows(
    target.db,
    sql`select last_row as "lastRow", rows::int8 as rows, done from ${sql.raw(CHECKPOINT)} where name = ${table.name}`,
    z.object({ lastRow: z.string().nullable(), rows: z.coerce.number(), done: z.boolean() }),
  );
  if (checkpoint?.done) return before + checkpoint.rows;
  const columns = [...((await targetColumns(target.db)).get(table.name) ?? [])];
  const wanted = table.columns.filter((c) => columns.includes(c));
  const keys = table.orderBy.map(ident).join(', ');
  const cols = table.columns.map(ident).join(', ');
  let lastRow = checkpoint?.lastRow ?? null;
  let rows = checkpoint?.rows ?? 0;
  for (;;) {
    const after = lastRow
      ? sql`where (${sql.raw(keys)}) > (select ${sql.raw(keys)} from json_populate_record(null::${sql.raw(ident(table.name))}, ${lastRow}::json))`
      : sql``;
    const batch = await rawRows(
      source.db,
      sql`select row_to_json(r)::text as j from (select ${sql.raw(cols)} from ${sql.raw(ident(table.name))} ${after} order by ${sql.raw(keys)} limit ${MOVE_BATCH_ROWS}) r`,
      z.object({ j: z.string() }),
    );
    const last = batch.at(-1)?.j ?? lastRow;
    const done = batch.length < MOVE_BATCH_ROWS;
    await target.db.transaction(async (tx) => {
      if (batch.length > 0) {
        await insertRows(
          tx,
          table.name,
          wanted,
          batch.map((r) => r.j),
        );
      }
      await tx.execute(
        sql`insert into ${sql.raw(CHECKPOINT)} (name, last_row, rows, done) values (${table.name}, ${last}, ${rows + batch.length}, ${done})
            on conflict (name) do update set last_row = excluded.last_row, rows = excluded.rows, done = excluded.done`,
      );
    });
    rows += batch.length;
    lastRow = last;
    onRows(before + rows);
    if (done) return before + rows;
  }
}

/** Counts on both sides, and an MD5 of the same sample of rows (by a hash of their text) on both. */
async function verifyTable(source: Database, target: Database, table: TableInfo): Promise<MoveVerification> {
  const cols = table.columns.map(ident).join(', ');
  const keys = table.orderBy.map(ident).join(', ');
  const sample = (db: Database) =>
    db.db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local timezone = 'UTC'`));
      // One scan of the whole table: minutes for ten million readings, hours for hundreds of
      // millions (the tools' client waits TOOL_QUERY_TIMEOUT_MS, a little longer).
      await tx.execute(sql.raw(`set local statement_timeout = '4h'`));
      const [row] = await rawRows(
        tx,
        sql.raw(
          `select count(*)::int8 as n, count(*) filter (where s)::int8 as sampled,
             coalesce(md5(string_agg(j, E'\\n' order by k) filter (where s)), '') as sum
           from (select row_to_json(r)::text as j, abs(hashtext(row_to_json(r)::text)) % ${SAMPLE_MODULUS} = 0 as s,
                   row(${keys}) as k
                 from (select ${cols} from ${ident(table.name)}) r) x`,
        ),
        z.object({ n: z.coerce.number(), sampled: z.coerce.number(), sum: z.string() }),
      );
      return row ?? { n: 0, sampled: 0, sum: '' };
    });
  const [s, t] = [await sample(source), await sample(target)];
  return {
    table: table.name,
    source: s.n,
    target: t.n,
    sampled: s.sampled,
    sourceSum: s.sum,
    targetSum: t.sum,
  };
}
