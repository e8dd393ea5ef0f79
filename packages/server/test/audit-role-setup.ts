import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';

/**
 * The README's database roles ("The database roles: the server does not own its audit log") under
 * names of this run's own: the server's role, the audit log's role, and the statements around them.
 */
export function readmeRoles() {
  const suffix = randomBytes(4).toString('hex');
  const roles = { server: `vw_server_${suffix}`, audit: `vw_audit_${suffix}` };
  const named = (text: string, database: string) =>
    text
      .replaceAll('vitalwatch_server', roles.server)
      .replaceAll('vitalwatch_audit', roles.audit)
      .replaceAll('DATABASE vitalwatch ', `DATABASE ${database} `);
  return {
    roles,
    /** The README's statements to run before the first start (the psql `\c` and `CREATE DATABASE` are the scratch database's). */
    setup(database: string): { cluster: string[]; database: string[] } {
      const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8').split('\n');
      const first = readme.findIndex((line) => line.includes('CREATE ROLE vitalwatch_server'));
      const block: string[] = [];
      for (let i = first; readme[i]?.startsWith('    '); i++) block.push(readme[i]!.trim());
      const statements = block.filter((s) => !s.startsWith('\\c') && !s.startsWith('CREATE DATABASE'));
      return {
        cluster: statements.filter((s) => s.startsWith('CREATE ROLE')).map((s) => named(s, database)),
        database: statements.filter((s) => !s.startsWith('CREATE ROLE')).map((s) => named(s, database)),
      };
    },
    /** src/db/audit-owner.sql with this run's role names. */
    ownerScript(database: string): string {
      return named(readFileSync(new URL('../src/db/audit-owner.sql', import.meta.url), 'utf8'), database);
    },
    /** A connection to `database` as one of the roles, with its password from the README. */
    as(role: string, database: string): string {
      const u = new URL(database);
      u.username = role;
      u.password = role === roles.server ? 'change-me' : 'change-me-too';
      return u.toString();
    },
    drop: (url: string) =>
      run(url, [`DROP ROLE IF EXISTS ${roles.server}`, `DROP ROLE IF EXISTS ${roles.audit}`]),
  };
}

export async function run(connectionString: string, statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}
