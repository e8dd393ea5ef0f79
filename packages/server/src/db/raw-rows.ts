import { type Query, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Tx } from './index.ts';
import { shapeName } from './once-for.ts';

const dialect = new PgDialect();

/**
 * Run hand-written SQL (multi-row `unnest` inserts, data-modifying CTEs) and parse its rows: the
 * drivers hand back untyped objects, so they go through a schema like any outside input.
 */
export async function rawRows<T extends z.ZodType>(tx: Tx, query: SQL, row: T): Promise<z.output<T>[]> {
  return resultOf(row).parse(await tx.execute(query)).rows;
}

/**
 * A hand-written statement of a hot path (ingest, the reads every dashboard makes), its values all
 * `sql.placeholder`s: its text is built once, and on PostgreSQL it runs as a named prepared
 * statement, parsed once per connection and, after its first few runs, planned once (PostgreSQL
 * keeps a generic plan when it costs no more than the custom ones). Planning was most of the work:
 * 0.9 ms of PostgreSQL's CPU per ingest batch, more than running it; the access check and newest
 * reading of a dashboard ran 4.2 times as often a second prepared as unprepared (pgbench, 4
 * clients). PGlite ignores the name. Call the result with the placeholders' values.
 */
export function preparedRows<T extends z.ZodType>(name: string, query: SQL, row: T) {
  let built: Query | undefined;
  return async (tx: Tx, values: Record<string, unknown>): Promise<z.output<T>[]> => {
    built ??= dialect.sqlToQuery(query);
    const result: unknown = await tx._.session.prepareQuery(built, undefined, name, false).execute(values);
    return resultOf(row).parse(result).rows;
  };
}

/**
 * `query`, whose text varies with optional filters and searches, as a prepared statement named
 * after its text (`shapeName`), its rows parsed here: the text is built once a call. The columns
 * come by their names in the text: alias computed ones.
 */
export async function shapedRows<T extends z.ZodType>(
  tx: Tx,
  label: string,
  query: SQL,
  row: T,
): Promise<z.output<T>[]> {
  const built = dialect.sqlToQuery(query);
  const prepared = tx._.session.prepareQuery(built, undefined, shapeName(label, built.sql), false);
  return resultOf(row).parse(await prepared.execute()).rows;
}

/**
 * One result schema per row schema, made once: zod compiles a schema on its first parse, and
 * doing that for every query cost more CPU than the rows themselves on the ingest path.
 */
const resultSchemas = new WeakMap<z.ZodType, z.ZodType>();
function resultOf<T extends z.ZodType>(row: T): z.ZodType<{ rows: z.output<T>[] }> {
  let schema = resultSchemas.get(row);
  if (!schema) {
    schema = z.object({ rows: z.array(row) });
    resultSchemas.set(row, schema);
  }
  return schema as z.ZodType<{ rows: z.output<T>[] }>;
}

/** `timestamptz` as milliseconds since the epoch, whichever driver and type parser is in use. */
export const epochMs = z.coerce.number().pipe(z.number().finite());

/**
 * A batch's columns as array parameters, for a multi-row statement over `unnest(…)`:
 * `columnsOf(rows)((r) => r.id)` binds the rows' ids as one array, in the rows' order.
 */
export const columnsOf =
  <R>(rows: readonly R[]) =>
  <T>(pick: (row: R) => T) =>
    sql.param(rows.map(pick));
