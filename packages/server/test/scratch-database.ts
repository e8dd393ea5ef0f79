import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A database of its own on the PostgreSQL server at `serverUrl`, named `<prefix>_<random>`; `drop`
 * removes it. For tests and benchmarks whose server processes share one database (no vitest here).
 */
export async function scratchDatabase(serverUrl: string, prefix = 'vw_proc') {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
