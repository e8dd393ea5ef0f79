import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from './index.ts';

/** What `onceForKey` made: by maker, database and key. */
const built = new WeakMap<object, WeakMap<Db, Map<string, unknown>>>();

/**
 * `make(db)` made once a database and kept: for prepared statements, whose SQL is then not
 * assembled again and which PostgreSQL parses and plans once a connection.
 */
export const onceFor = <T>(db: Db, make: (db: Db) => T): T => onceForKey(db, make, '', undefined);

/**
 * Named shapes of one query a database keeps prepared at most. A connection holds each named
 * statement it ran until it closes, and PostgreSQL keeps its plan: 335 kB for the alert page's
 * (`pg_backend_memory_contexts`), whose shapes (filters, cursor, order: 128) and LIMIT tiers a
 * signed-in client chooses. Past this many, a new shape runs unnamed, planned on each call.
 */
export const NAMED_SHAPES_PER_QUERY = 64;

/**
 * `make(db, key, shape, named)` made once a database and `key` and kept: a prepared statement whose
 * text varies with which optional filters a call has (`shape`, named by `key`), its values all
 * placeholders. Each shape is built once, parsed once a connection, and PostgreSQL keeps a generic
 * plan for it when that costs no more than planning each call (its own rule, after five calls). For
 * queries with few shapes whose plans do not hinge on the values (not a trigram search: its generic
 * plan was twice as slow). The alert page's list and counts planned in 1.2 ms of their 2.2 ms;
 * prepared, the page answered 46–55 % more often on 20 connections. A LIMIT must be written into
 * the text (`writtenLimit`) for PostgreSQL ever to keep a generic plan (see `limitTier`). `named`
 * is false for the shapes made after `NAMED_SHAPES_PER_QUERY` others: give `statementName` it.
 */
export function onceForKey<S, T>(
  db: Db,
  make: (db: Db, key: string, shape: S, named: boolean) => T,
  key: string,
  shape: S,
): T {
  let byDb = built.get(make);
  if (!byDb) {
    byDb = new WeakMap();
    built.set(make, byDb);
  }
  let byKey = byDb.get(db);
  if (!byKey) {
    byKey = new Map();
    byDb.set(db, byKey);
  }
  if (!byKey.has(key)) byKey.set(key, make(db, key, shape, byKey.size < NAMED_SHAPES_PER_QUERY));
  return byKey.get(key) as T;
}

/**
 * The name to give drizzle's `.prepare`: `name` while `named`, else none (typed as a name, as
 * drizzle wants one): node-postgres then sends the statement unnamed, parsed and planned each call.
 */
export const statementName = (name: string, named: boolean): string =>
  named ? name : (undefined as unknown as string);

/** A prepared statement's name for a query of shape `label` whose text is `text`. */
export const shapeName = (label: string, text: string): string =>
  `${label}_${createHash('sha1').update(text).digest('base64url').slice(0, 16)}`;

/**
 * A prepared statement's LIMIT: `n` rounded up to a tier, written into the statement's text (the
 * caller keeps the first `n` rows). As a bound value, PostgreSQL planned the statement afresh on
 * every call: its generic plan, made without the value, assumes a tenth of the rows will be read,
 * so it never looked cheaper than a custom plan (`pg_prepared_statements`: 0 generic plans of 8 for
 * the newest readings; with the limit written in, generic from the sixth call on).
 *
 * The tiers are 1 to 4, then four to each doubling (5, 6, 7, 8, 10, 12, 14, 16, 20, 24, …): a call
 * reads at most a quarter more rows than it keeps, and a query has 49 tiers up to 10,000 (a query
 * of several shapes: 49 a shape, named up to `NAMED_SHAPES_PER_QUERY`). Powers of two read up to
 * twice as many: the alert page of 20 (21 asked, for the next page) read 32 rows; with 24,
 * PostgreSQL's CPU for it fell by about a sixth.
 */
export function limitTier(n: number): number {
  const rows = Math.max(1, Math.ceil(n));
  if (rows <= 4) return rows;
  const step = 2 ** (Math.floor(Math.log2(rows - 1)) - 2);
  return Math.ceil(rows / step) * step;
}

/** `make(tier)` made once for each `limitTier` and kept: the statement for a limit of `n`. */
export function perLimitTier<T>(make: (tier: number) => T): (n: number) => T {
  const made = new Map<number, T>();
  return (n) => {
    const tier = limitTier(n);
    let value = made.get(tier);
    if (value === undefined) {
      value = make(tier);
      made.set(tier, value);
    }
    return value;
  };
}

/**
 * `n` (a whole number) for a drizzle `.limit()`, written into the statement's text rather than sent
 * as a bound value, so that a prepared statement's generic plan knows it (see `limitTier`). Typed
 * as the number it stands for: drizzle writes an SQL chunk where it would bind a number.
 */
export function writtenLimit(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`writtenLimit: ${n} is not a row count`);
  return sql.raw(String(n)) as unknown as number;
}
