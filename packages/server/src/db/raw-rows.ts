import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Tx } from './index.ts';

const dialect = new PgDialect();

/**
 * Run hand-written SQL (multi-row `unnest` inserts, data-modifying CTEs) and parse its rows: the
 * drivers hand back untyped objects, so they go through a schema like any outside input.
 *
 * With a `name`, PostgreSQL runs it as a named prepared statement: parsed once per connection, its
 * plan cached, instead of both on every call (for the ingest insert that was 0.9 ms of PostgreSQL's
 * CPU per batch, more than running it). Only for statements whose text never changes (the values
 * all parameters); PGlite ignores the name.
 */
export async function rawRows<T extends z.ZodType>(
  tx: Tx,
  query: SQL,
  row: T,
  name?: string,
): Promise<z.output<T>[]> {
  const result: unknown = name
    ? await tx._.session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false).execute()
    : await tx.execute(query);
  return resultOf(row).parse(result).rows;
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
