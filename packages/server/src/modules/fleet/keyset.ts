import { FLEET_MESSAGES, type SortDirection } from '@vitalwatch/shared';
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { z } from 'zod';
import { badRequest } from '../../errors.ts';
import { isUuid } from '../../lib/ids.ts';

/**
 * A sort key: an expression that is never null (nulls are mapped to a value below every real one,
 * so they come last in a descending sort and first in an ascending one) and the SQL type its text
 * form casts back to. With the row's id as tie-breaker the order is total: a page starts strictly
 * after the previous page's last (key, id), so rows inserted meanwhile are neither repeated nor
 * skipped, and no page scans the rows before it (no OFFSET).
 */
export interface SortKey {
  expr: SQL;
  type: 'text' | 'timestamptz' | 'real';
}

const cursorJson = z.tuple([z.string(), z.string().refine(isUuid)]);

/** The opaque `nextCursor` of a page ending at this row. */
export const encodeCursor = (key: string, id: string): string =>
  Buffer.from(JSON.stringify([key, id])).toString('base64url');

/**
 * `encodeCursor(key, id)` written by the database: the same bytes (JSON escapes strings as
 * JavaScript does; base64 without its padding and line breaks, in the URL's alphabet).
 */
export const cursorOf = (key: SQLWrapper, id: SQLWrapper): SQL<string> =>
  sql`translate(encode(convert_to('[' || to_json(${key}::text)::text || ',' || to_json(${id}::text)::text || ']',
    'UTF8'), 'base64'), '+/=' || chr(10), '-_')`;

/** What PostgreSQL's text form of each key type looks like (DateStyle ISO, the default). */
const KEY_FORMS: Record<SortKey['type'], RegExp> = {
  text: /^/s,
  timestamptz: /^(-infinity|\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2}){0,2})$/,
  real: /^-?\d+(\.\d+)?(e[+-]?\d+)?$/,
};

const badCursor = () =>
  badRequest(FLEET_MESSAGES.badCursor, [{ path: 'after', message: FLEET_MESSAGES.badCursor }]);

/** A cursor of another sort (or made up) is refused here rather than by the database's cast. */
function decodeCursor(cursor: string, type: SortKey['type']): [string, string] {
  let decoded: [string, string];
  try {
    decoded = cursorJson.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw badCursor();
  }
  if (!KEY_FORMS[type].test(decoded[0])) throw badCursor();
  return decoded;
}

/** Rows after the cursor's (key, id) in this order. */
export function afterCursor(key: SortKey, id: SQL, dir: SortDirection, cursor: string): SQL {
  const [value, afterId] = decodeCursor(cursor, key.type);
  const cast = sql.raw(key.type);
  const op = sql.raw(dir === 'asc' ? '>' : '<');
  return sql`(${key.expr}, ${id}) ${op} (${value}::${cast}, ${afterId}::uuid)`;
}

/** `order by key, id` in the direction asked for. */
export function orderBy(key: SortKey, id: SQL, dir: SortDirection): SQL {
  const d = sql.raw(dir);
  return sql`${key.expr} ${d}, ${id} ${d}`;
}

/** The key's text form, selected beside each row so the last one becomes the cursor. */
export const keyText = (key: SortKey) => sql<string>`(${key.expr})::text`;

/** `%term%` for LIKE / ILIKE with the term's own wildcards taken literally. */
export const containing = (term: string) => `%${escapeLike(term)}%`;
export const startingWith = (term: string) => `${escapeLike(term)}%`;
const escapeLike = (term: string) => term.replace(/[\\%_]/g, '\\$&');
