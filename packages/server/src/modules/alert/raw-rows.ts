import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../../db/index.ts';

/**
 * Run hand-written SQL (multi-row `unnest` inserts, data-modifying CTEs) and parse its rows: the
 * drivers hand back untyped objects, so they go through a schema like any outside input.
 */
export async function rawRows<T extends z.ZodType>(tx: Tx, query: SQL, row: T): Promise<z.output<T>[]> {
  const result: unknown = await tx.execute(query);
  return z.object({ rows: z.array(row) }).parse(result).rows;
}

/** `timestamptz` as milliseconds since the epoch, whichever driver and type parser is in use. */
export const epochMs = z.coerce.number().pipe(z.number().finite());
