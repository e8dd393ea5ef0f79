import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/**
 * Replies PostgreSQL writes as JSON text for the server to send as they are (`JsonData` in
 * http/contract-routes.ts): what JavaScript would have written, byte for byte where it matters.
 */

/** A timestamp as JavaScript's `toISOString` writes it (milliseconds truncated, as `new Date` does). */
export const isoTime = (value: SQLWrapper): SQL<string | null> =>
  sql`to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * One JSON object of `fields` (each named as in the object), optionally over the row `from`:
 * written by `row_to_json`, without the spaces `json_build_object` puts around every colon.
 */
export function jsonObject(fields: Record<string, SQLWrapper>, from?: SQL): SQL {
  const list = sql.join(
    Object.entries(fields).map(([name, value]) => sql`${value} as ${sql.identifier(name)}`),
    sql`, `,
  );
  return sql`(select row_to_json(r) from (select ${list}${from ? sql` from ${from}` : sql``}) r)`;
}
