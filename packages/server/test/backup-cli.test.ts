import { execFile } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { writeBackup } from '../src/backup/snapshot.ts';
import { createDatabase } from '../src/db/index.ts';
import { insertAlert, insertDevice } from './admin-helpers.ts';
import { readmeRoles, run } from './audit-role-setup.ts';
import { scratchFile, tableCounts } from './backup-helpers.ts';
import { createAdmin, createScratchDatabase, testConfig } from './helpers.ts';
import { TestDns } from './test-dns.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const url = process.env.TEST_DATABASE_URL;
const READINGS = 1234;

/** `npm run <script> -- args` as a user types it, in its own process: exit code and output. */
async function npm(script: string, args: string[], env: Record<string, string>) {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  try {
    const { stdout, stderr } = await promisify(execFile)('npm', ['run', '--silent', script, '--', ...args], {
      cwd: root,
      env: { ...inherited, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const { code, stdout, stderr } = err as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

const scratchDir = () => mkdtempSync(path.join(tmpdir(), 'vw-cli-'));
const pgliteIn = async (dir: string) => {
  const database = await createDatabase({ databaseUrl: undefined, pgliteDir: path.join(dir, 'pglite') });
  return { database, counts: await tableCounts(database).finally(() => database.close()) };
};

describe('npm run backup, restore and db:move as a user runs them', { timeout: 240_000 }, () => {
  const dataDir = scratchDir();
  const file = scratchFile();
  let source: Record<string, number>;

  // A server on an embedded database in DATA_DIR, with an admin, a device, an alert and readings.
  beforeAll(async () => {
    const built = await buildApp(testConfig({ dataDir, pgliteDir: path.join(dataDir, 'pglite') }), {
      lookupHost: new TestDns().lookup,
    });
    try {
      await createAdmin(built);
      const deviceId = await insertDevice(built.ctx.db);
      await insertAlert(built.ctx.db, deviceId);
      await built.ctx.db.execute(sql`
        insert into health_records (recorded_at, device_seq, heart_rate, spo2, message_id)
        select now() - make_interval(secs => g), (select seq from devices where id = ${deviceId}::uuid), 70, 97, 'c' || g
        from generate_series(1, ${READINGS}) g`);
      const address = await built.app.listen({ port: 0, host: '127.0.0.1' });
      const backup = await npm('backup', ['--out', file, '--url', address], { DATA_DIR: dataDir });
      expect(backup.stderr).not.toMatch(/failed/);
      expect(backup.code).toBe(0);
      expect(backup.stdout).toMatch(
        /backup written: .+\n {2}[\d.]+ MiB, \d+ rows in \d+ tables, schema \d{4}_\w+, NOT encrypted/,
      );
    } finally {
      await built.app.close();
    }
    source = (await pgliteIn(dataDir)).counts;
    expect(source.health_records).toBe(READINGS);
    expect(source.audit_events).toBeGreaterThan(0);
  });

  it('restores into an empty DATA_DIR with every count, and refuses that DATA_DIR once it is not empty', async () => {
    const target = scratchDir();
    const restored = await npm('restore', [file], { DATA_DIR: target });
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(new RegExp(`health_records +${READINGS}\\n`));
    expect(restored.stdout).not.toMatch(/\(backup: /);
    expect(existsSync(path.join(target, 'secrets.json'))).toBe(true);
    expect((await pgliteIn(target)).counts).toEqual(source);

    const again = await npm('restore', [file], { DATA_DIR: target });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^restore refused: the target database is not empty/);
    expect((await pgliteIn(target)).counts).toEqual(source);
  });

  it('refuses a backup of a newer schema than the code knows, writing nothing', async () => {
    const newer = await createDatabase({ databaseUrl: undefined, pgliteDir: 'memory' });
    const future = scratchFile();
    try {
      await newer.migrate();
      await newer.db.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('future', 4102444800000)`,
      );
      await writeBackup(
        { database: newer, keys: { jwtSecret: 'x'.repeat(32), vapid: null } },
        createWriteStream(future),
        undefined,
      );
    } finally {
      await newer.close();
    }
    const target = scratchDir();
    const refused = await npm('restore', [future], { DATA_DIR: target });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^restore refused: the backup's schema \(.+\) is newer than this version/);
    expect(existsSync(path.join(target, 'secrets.json'))).toBe(false);
    expect((await pgliteIn(target)).counts).toEqual({});
  });

  describe.skipIf(!url)('on PostgreSQL', () => {
    const readme = readmeRoles();
    const drops: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const drop of drops) await drop();
      await readme.drop(url!);
    });
    const scratch = async () => {
      const db = await createScratchDatabase(url!);
      drops.push(db.drop);
      return db;
    };

    it('restores into an empty PostgreSQL database with every count', async () => {
      const target = await scratch();
      const restored = await npm('restore', [file], { DATA_DIR: scratchDir(), DATABASE_URL: target.url });
      expect(restored.code).toBe(0);
      expect(restored.stdout).toMatch(/into PostgreSQL/);
      const database = await createDatabase({ databaseUrl: target.url, pgliteDir: 'memory' });
      expect(await tableCounts(database).finally(() => database.close())).toEqual(source);
    });

    it('moves DATA_DIR into PostgreSQL with the verification printed, and refuses to move into it twice', async () => {
      const target = await scratch();
      const moved = await npm('db:move', ['--to', target.url], { DATA_DIR: dataDir });
      expect(moved.code).toBe(0);
      expect(moved.stdout).toMatch(
        new RegExp(`health_records +${READINGS} → +${READINGS} +sample \\d+: same`),
      );
      expect(moved.stdout).not.toMatch(/DIFFERENT/);
      const again = await npm('db:move', ['--to', target.url], { DATA_DIR: dataDir });
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/^move refused: the target database is not empty/);
    });

    it('moves as the README server role, then the audit log goes to its own role and stays append-only', async () => {
      const target = await scratch();
      const setup = readme.setup(target.name);
      await run(url!, setup.cluster);
      await run(target.url, setup.database);
      const moved = await npm('db:move', ['--to', readme.as(readme.roles.server, target.url)], {
        DATA_DIR: dataDir,
      });
      expect(moved.stderr).not.toMatch(/refused|stopped/);
      expect(moved.code).toBe(0);
      await run(target.url, [readme.ownerScript(target.name)]);

      const client = new pg.Client({ connectionString: readme.as(readme.roles.server, target.url) });
      await client.connect();
      try {
        const owners = await client.query(
          `select distinct pg_get_userbyid(relowner) as owner from pg_class
           where oid = 'audit_events'::regclass or oid in (select inhrelid from pg_inherits where inhparent = 'audit_events'::regclass)`,
        );
        expect(owners.rows).toEqual([{ owner: readme.roles.audit }]);
        const count = await client.query('select count(*)::int as n from audit_events');
        expect(count.rows[0].n).toBe(source.audit_events);
        await expect(client.query('TRUNCATE audit_events')).rejects.toThrow(
          /permission denied|must be owner/,
        );
        await expect(client.query('DELETE FROM audit_events')).rejects.toThrow();
        // The server appends under its role: a sign-in is recorded after the move.
        await client.query(`insert into audit_events (action, outcome) values ('sign-in', 'success')`);
      } finally {
        await client.end();
      }
      const built = await buildApp(
        testConfig({ databaseUrl: readme.as(readme.roles.server, target.url), dataDir: scratchDir() }),
        { lookupHost: new TestDns().lookup },
      );
      await built.app.ready();
      await built.app.close();
    });
  });
});
