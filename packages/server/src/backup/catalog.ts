import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../db/index.ts';
import { rawRows } from '../db/raw-rows.ts';

/** The migrations this code knows, oldest first (drizzle's journal). */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../db/migrations', import.meta.url));

const journalSchema = z.object({
  entries: z.array(z.object({ idx: z.number(), when: z.number(), tag: z.string() })),
});
export type JournalEntry = z.output<typeof journalSchema>['entries'][number];

export function readJournal(folder = MIGRATIONS_FOLDER): JournalEntry[] {
  return journalSchema.parse(JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')))
    .entries;
}

/** A schema version: the last migration applied, by its tag and its journal time. */
export const schemaVersion = z.object({ tag: z.string(), when: z.number() });
export type SchemaVersion = z.output<typeof schemaVersion>;

/** The database's schema version, or null when no migration has run (an empty target). */
export async function currentSchemaVersion(tx: Tx): Promise<SchemaVersion | null> {
  const [exists] = await rawRows(
    tx,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
    z.object({ present: z.boolean() }),
  );
  if (!exists?.present) return null;
  const [last] = await rawRows(
    tx,
    sql`select created_at::text as when from drizzle.__drizzle_migrations order by created_at desc limit 1`,
    z.object({ when: z.coerce.number() }),
  );
  if (!last) return null;
  const entry = readJournal().find((e) => e.when === last.when);
  return { tag: entry?.tag ?? `unknown-${last.when}`, when: last.when };
}

export interface TableInfo {
  name: string;
  /** Stored columns in their table order (generated columns are left out: the target computes them). */
  columns: string[];
  /** The columns a stable row order sorts by (see `orderOf`). */
  orderBy: string[];
  partitioned: boolean;
}

/**
 * Every table of the `public` schema (partitions apart: their rows are read through their parent),
 * parents before the tables whose foreign keys point at them. Read from the catalog, so a table a
 * new migration adds is backed up without a line changing here.
 */
export async function listTables(tx: Tx): Promise<TableInfo[]> {
  const tables = await rawRows(
    tx,
    sql`select c.relname as name, c.relkind = 'p' as partitioned,
          coalesce((select json_agg(a.attname order by a.attnum) from pg_attribute a
            where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''), '[]') as columns,
          coalesce((select json_agg(a.attname order by array_position(i.indkey::int2[], a.attnum))
            from pg_index i join pg_attribute a on a.attrelid = c.oid and a.attnum = any(i.indkey::int2[])
            where i.indrelid = c.oid and i.indisprimary), '[]') as pk,
          coalesce((select json_agg(a.attname order by array_position(i.indkey::int2[], a.attnum))
            from pg_index i join pg_attribute a on a.attrelid = c.oid and a.attnum = any(i.indkey::int2[])
            where i.indexrelid = (select x.indexrelid from pg_index x where x.indrelid = c.oid
              and x.indpred is null and x.indexprs is null
              and not exists (select from pg_attribute na where na.attrelid = c.oid
                and na.attnum = any(x.indkey::int2[]) and not na.attnotnull)
              order by x.indnatts desc, x.indexrelid limit 1)), '[]') as idx
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
        order by c.relname`,
    z.object({
      name: z.string(),
      partitioned: z.boolean(),
      columns: z.array(z.string()),
      pk: z.array(z.string()),
      idx: z.array(z.string()),
    }),
  );
  const edges = await rawRows(
    tx,
    sql`select distinct c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent
        from pg_constraint c join pg_class t on t.oid = c.conrelid
        where c.contype = 'f' and not t.relispartition and c.conrelid <> c.confrelid`,
    z.object({ child: z.string(), parent: z.string() }),
  );
  const infos = tables.map((t) => ({
    name: t.name,
    columns: t.columns,
    orderBy: orderOf(t),
    partitioned: t.partitioned,
  }));
  return dependencyOrder(infos, edges);
}

/**
 * The primary key; else, for the time-partitioned tables (no primary key, ids from a sequence),
 * the longest index on NOT NULL columns and then `id`, so batches in key order walk an index
 * (readings: device, time, id) instead of sorting the table; else every column.
 */
function orderOf(t: { columns: string[]; pk: string[]; idx: string[] }): string[] {
  if (t.pk.length > 0) return t.pk;
  if (t.columns.includes('id')) return [...t.idx.filter((c) => c !== 'id'), 'id'];
  return t.columns;
}

/** Kahn's sort by name: stable, and a cycle (none today) falls back to name order for what is left. */
function dependencyOrder(tables: TableInfo[], edges: { child: string; parent: string }[]): TableInfo[] {
  const names = new Set(tables.map((t) => t.name));
  const parents = new Map(tables.map((t) => [t.name, new Set<string>()]));
  for (const { child, parent } of edges) {
    const c = unquote(child);
    const p = unquote(parent);
    if (names.has(c) && names.has(p)) parents.get(c)?.add(p);
  }
  const ordered: TableInfo[] = [];
  const done = new Set<string>();
  let remaining = tables;
  while (remaining.length > 0) {
    const ready = remaining.filter((t) => [...(parents.get(t.name) ?? [])].every((p) => done.has(p)));
    const next = ready.length > 0 ? ready : remaining;
    for (const t of next) {
      ordered.push(t);
      done.add(t.name);
    }
    remaining = remaining.filter((t) => !done.has(t.name));
  }
  return ordered;
}

const unquote = (name: string) => name.replace(/^public\./, '').replace(/^"(.*)"$/, '$1');

export interface PartitionInfo {
  parent: string;
  name: string;
  /** The partition bound as PostgreSQL prints it: `FOR VALUES FROM ('…') TO ('…')`. */
  bound: string;
  /** The bound's lower end, for the time-partitioned tables' own functions. */
  from: string | null;
}

export async function listPartitions(tx: Tx): Promise<PartitionInfo[]> {
  const rows = await rawRows(
    tx,
    sql`select p.relname as parent, c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
        from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
        join pg_namespace n on n.oid = p.relnamespace
        where n.nspname = 'public' and p.relkind = 'p'
        order by p.relname, c.relname`,
    z.object({ parent: z.string(), name: z.string(), bound: z.string() }),
  );
  return rows.map((r) => ({ ...r, from: /FROM \('([^']+)'\)/.exec(r.bound)?.[1] ?? null }));
}

export interface SequenceInfo {
  name: string;
  lastValue: string | null;
}

/** Every sequence's position (identity columns' and free ones such as `health_reading_ids`). */
export async function listSequences(tx: Tx): Promise<SequenceInfo[]> {
  return rawRows(
    tx,
    sql`select sequencename as name, last_value::text as "lastValue" from pg_sequences
        where schemaname = 'public' order by sequencename`,
    z.object({ name: z.string(), lastValue: z.string().nullable() }),
  );
}

/** `"name"` quoted for SQL. */
export const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
