import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from './index.ts';

/**
 * Run hand-written SQL (multi-row `unnest` inserts, data-modifying CTEs) and parse its rows: the
 * drivers hand back untyped objects, so they go through a schema like any outside input.
 */
export async function rawRows<T extends z.ZodType>(tx: Tx, query: SQL, row: T): Promise<z.output<T>[]> {
  const result: unknown = await tx.execute(query);
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
