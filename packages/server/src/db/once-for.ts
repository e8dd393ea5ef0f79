import type { Db } from './index.ts';

const built = new WeakMap<(db: Db) => unknown, WeakMap<Db, unknown>>();

/**
 * `make(db)` made once a database and kept: for prepared statements, whose SQL is then not
 * assembled again and which PostgreSQL parses and plans once a connection.
 */
export function onceFor<T>(db: Db, make: (db: Db) => T): T {
  let byDb = built.get(make);
  if (!byDb) {
    byDb = new WeakMap();
    built.set(make, byDb);
  }
  if (!byDb.has(db)) byDb.set(db, make(db));
  return byDb.get(db) as T;
}
