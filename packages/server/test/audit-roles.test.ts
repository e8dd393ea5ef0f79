import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltApp, buildApp } from '../src/app.ts';
import { TimePartitions } from '../src/db/partitions.ts';
import { sqlState } from '../src/db/sql-state.ts';
import { readmeRoles, run } from './audit-role-setup.ts';
import { createAdmin, createScratchDatabase, signup, testConfig } from './helpers.ts';
import { TestDns } from './test-dns.ts';

const url = process.env.TEST_DATABASE_URL;
const readme = readmeRoles();
const { roles, as } = readme;

describe.skipIf(!url)('the audit log under the README database roles (PostgreSQL)', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let built: BuiltApp;
  const start = async () => {
    const app = await buildApp(testConfig({ databaseUrl: as(roles.server, scratch.url) }), {
      lookupHost: new TestDns().lookup,
    });
    await app.app.ready();
    return app;
  };

  beforeAll(async () => {
    scratch = await createScratchDatabase(url!);
    const setup = readme.setup(scratch.name);
    expect(setup.cluster).toHaveLength(2);
    expect(setup.database).toHaveLength(2);
    await run(url!, setup.cluster);
    await run(scratch.url, setup.database);
    // The first start makes the tables; then the audit log is given away, and the server starts again.
    await (await start()).app.close();
    await run(scratch.url, [readme.ownerScript(scratch.name)]);
    built = await start();
  });

  afterAll(async () => {
    await built?.app.close();
    await scratch?.drop();
    await readme.drop(url!);
  });

  /** The SQLSTATE and message a statement is refused with, or 'done'. */
  const attempt = async (role: string, statement: string) => {
    const client = new pg.Client({ connectionString: as(role, scratch.url) });
    await client.connect();
    try {
      await client.query(statement);
      return 'done';
    } catch (err) {
      return `${sqlState(err)} ${(err as Error).message}`;
    } finally {
      await client.end();
    }
  };
  const partitionsOfTheLog = async () => {
    const rows = await built.ctx.db.execute(
      sql`select inhrelid::regclass::text as name from pg_inherits where inhparent = 'audit_events'::regclass order by 1`,
    );
    return (rows as unknown as { rows: { name: string }[] }).rows.map((r) => r.name);
  };

  it('runs the server: it records, reads and makes partitions of the log it does not own', async () => {
    const user = await signup(built);
    const admin = await createAdmin(built);
    const res = await built.app.inject({
      method: 'GET',
      url: `/api/v1/admin/audit?actor=${user.user.username}`,
      headers: admin.auth,
    });
    expect(res.json().data.entries.map((e: { action: string }) => e.action)).toEqual(['sign-up']);
    const later = new Date(Date.now() + 300 * 86_400_000);
    await new TimePartitions(built.ctx.db, { raw: 90, rollups: 730, audit: 2190 }).ensure(later, later);
    const owners = await built.ctx.db.execute(
      sql`select distinct pg_get_userbyid(relowner) as owner from pg_class
        where oid = 'audit_events'::regclass or oid in (select inhrelid from pg_inherits where inhparent = 'audit_events'::regclass)`,
    );
    expect((owners as unknown as { rows: { owner: string }[] }).rows).toEqual([{ owner: roles.audit }]);
  });

  it('refuses the server TRUNCATE, DETACH, DROP, disabling a trigger and replication mode', async () => {
    const [part] = await partitionsOfTheLog();
    const refused = [
      'TRUNCATE audit_events',
      `TRUNCATE ${part}`,
      `ALTER TABLE audit_events DETACH PARTITION ${part}`,
      `DROP TABLE ${part}`,
      'ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only',
      `ALTER TABLE ${part} DISABLE TRIGGER audit_events_no_truncate`,
      'SET session_replication_role = replica',
      'DELETE FROM audit_events',
      "UPDATE audit_events SET action = 'sign-in'",
      'CREATE OR REPLACE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN OLD; END $$',
      `SELECT drop_audit_partitions_before(now() + interval '1 year')`,
    ];
    for (const statement of refused) {
      expect(await attempt(roles.server, statement), statement).toMatch(/^42501 /);
    }
    expect(await partitionsOfTheLog()).toContain(part);
  });

  it('holds the audit role to the rules too, but for dropping whole months past retention', async () => {
    const [part] = await partitionsOfTheLog();
    expect(await attempt(roles.audit, 'TRUNCATE audit_events')).toMatch(/append-only: TRUNCATE/);
    expect(await attempt(roles.audit, `TRUNCATE ${part}`)).toMatch(/append-only: TRUNCATE/);
    expect(await attempt(roles.audit, `ALTER TABLE audit_events DETACH PARTITION ${part}`)).toMatch(
      /cannot be detached/,
    );
    expect(
      await attempt(roles.audit, `ALTER TABLE ${part} DISABLE TRIGGER audit_events_no_truncate`),
    ).toMatch(/stay enabled/);
    expect(await attempt(roles.audit, `DROP TRIGGER audit_events_no_truncate ON ${part}`)).toMatch(
      /stay enabled/,
    );
    expect(await attempt(roles.audit, 'DROP TABLE audit_events')).toMatch(/cannot be dropped/);
    expect(await attempt(roles.audit, 'SET session_replication_role = replica')).toMatch(/^42501 /);

    // An entry of 400 days ago: the server's maintenance leaves it; the audit role's retention drops its month.
    const old = new Date(Date.now() - 400 * 86_400_000);
    const partitions = new TimePartitions(built.ctx.db, { raw: 90, rollups: 730, audit: 365 });
    await partitions.ensure(old, old);
    await built.ctx.db.execute(
      sql`insert into audit_events (at, action, outcome) values (${old.toISOString()}::timestamptz, 'sign-in', 'success')`,
    );
    const { dropped } = await partitions.maintain();
    expect(dropped.filter((name) => name.startsWith('audit_events'))).toEqual([]);
    const month = `audit_events_p${old.toISOString().slice(0, 7).replace('-', '')}01`;
    expect(await partitionsOfTheLog()).toContain(month);
    expect(
      await attempt(roles.audit, "SELECT drop_audit_partitions_before(now() - interval '365 days')"),
    ).toBe('done');
    expect(await partitionsOfTheLog()).not.toContain(month);
  });
});
