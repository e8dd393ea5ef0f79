import { randomBytes, randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AuthResponse, PublicUser } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import { symbols } from 'pino';
import { afterAll, beforeAll, inject, vi } from 'vitest';
import { type BuildOptions, type BuiltApp, buildApp } from '../src/app.ts';
import type { AppConfig } from '../src/config.ts';
import { createDatabase, type Database } from '../src/db/index.ts';
import { scratchDatabase } from './scratch-database.ts';
import { TestDns } from './test-dns.ts';

export interface DbTarget {
  name: 'pglite' | 'postgres';
  open(): Promise<{ database: Database; drop(): Promise<void> }>;
}

/** PGlite always; the PostgreSQL server too when TEST_DATABASE_URL is set (CI requires it). */
export function dbTargets(): DbTarget[] {
  const targets: DbTarget[] = [
    {
      name: 'pglite',
      async open() {
        const database = await openMigratedPglite();
        return { database, drop: async () => {} };
      },
    },
  ];
  const url = process.env.TEST_DATABASE_URL;
  if (!url && process.env.CI === 'true') throw new Error('CI=true but TEST_DATABASE_URL is not set');
  if (url) targets.push({ name: 'postgres', open: () => openScratchPostgres(url) });
  return targets;
}

/** An in-memory PGlite with every migration applied, loaded from the run's template (global-setup.ts). */
export async function openMigratedPglite() {
  const template = new Blob([readFileSync(inject('pgliteTemplate'))]);
  return createDatabase({ databaseUrl: undefined, pgliteDir: 'memory', pgliteLoad: template });
}

/** An empty database on the PostgreSQL server at `url`: its name and URL, and how to drop it. */
export const createScratchDatabase = (url: string) => scratchDatabase(url, 'vw_test');

/** A fresh database on the server per test file, dropped afterwards. */
async function openScratchPostgres(url: string) {
  const scratch = await createScratchDatabase(url);
  const database = await createDatabase({ databaseUrl: scratch.url, pgliteDir: 'memory', poolSize: 10 });
  await database.migrate();
  return { database, drop: scratch.drop };
}

export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vw-test-'));
  return {
    env: 'test',
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: undefined,
    pgliteDir: 'memory',
    redisUrl: undefined,
    mqttPort: 0,
    mqttUrl: undefined,
    jwtSecret: randomBytes(32).toString('hex'),
    vapid: undefined,
    admin: {},
    smtpUrl: undefined,
    mailFrom: 'VitalWatch <test@vitalwatch.local>',
    corsOrigins: [],
    logLevel: 'silent',
    trustProxy: false,
    webDist: undefined,
    loginLimits: { perIpPerMinute: 10_000, perAccountFailures: 10, perAccountWindowMs: 15 * 60_000 },
    signupsPerAddressPerHour: 100_000,
    // Tests subscribe with made-up push hosts (push.example.com); the address rules still apply.
    pushEndpoints: { allowedHosts: 'any', testOnlyHosts: [] },
    ...overrides,
  };
}

/**
 * Per test file and database target: one database, one app. Returns a getter because the app
 * exists only once `beforeAll` ran.
 */
export function useTestApp(
  target: DbTarget,
  overrides: Partial<AppConfig> = {},
  options: Omit<BuildOptions, 'database'> = {},
): () => BuiltApp {
  let built: BuiltApp | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const opened = await target.open();
    drop = opened.drop;
    // No test uses the network: push hosts resolve from a table (public unless a test says otherwise).
    const lookupHost = new TestDns().lookup;
    built = await buildApp(testConfig(overrides), { lookupHost, ...options, database: opened.database });
    await built.app.ready();
  });
  afterAll(async () => {
    await built?.app.close();
    await drop?.();
  });
  return () => {
    if (!built) throw new Error('test app not built yet');
    return built;
  };
}

export const unique = (prefix = 'u') => `${prefix}${randomUUID().slice(0, 8)}`;

export interface TestUser {
  user: PublicUser;
  accessToken: string;
  refreshToken: string;
  password: string;
  auth: { authorization: string };
}

/** Sign up a fresh user through the API (role user). */
export async function signup(built: BuiltApp, overrides: Record<string, string> = {}): Promise<TestUser> {
  const username = unique('user');
  const password = 'Passw0rd!';
  const res = await built.app.inject({
    method: 'POST',
    url: '/api/v1/user/create',
    payload: {
      user: {
        fullName: 'Test User',
        username,
        email: `${username}@example.com`,
        password,
        cnfPassword: password,
        ...overrides,
      },
    },
  });
  if (res.statusCode !== 201) throw new Error(`signup failed: ${res.statusCode} ${res.body}`);
  const body = res.json<AuthResponse>();
  return {
    ...body.data,
    password: overrides.password ?? password,
    auth: { authorization: `Bearer ${body.data.accessToken}` },
  };
}

/** Marks the user's address as proved, as following the verification link does (alert e-mails go only to such). */
export async function verifyEmail(built: BuiltApp, user: TestUser): Promise<void> {
  await built.ctx.db.execute(
    sql`update users set email_verified_at = now() where id = ${user.user._id}::uuid`,
  );
}

/** A fresh admin: created directly through the service, then signed in through the API. */
export async function createAdmin(built: BuiltApp): Promise<TestUser> {
  const username = unique('admin');
  const password = 'Adm1nPassw0rd';
  await built.ctx.users.createUser({
    fullName: 'Test Admin',
    username,
    email: `${username}@example.com`,
    password,
    role: 'admin',
  });
  const res = await built.app.inject({
    method: 'POST',
    url: '/api/v1/user/login',
    payload: { user: { username, password } },
  });
  const body = res.json<AuthResponse>();
  return { ...body.data, password, auth: { authorization: `Bearer ${body.data.accessToken}` } };
}

/** Everything the app logs while `work` runs (captured, not printed); the app's level applies. */
export async function logsOf(built: BuiltApp, work: () => Promise<void>): Promise<string> {
  const stream: unknown = Reflect.get(built.app.log, symbols.streamSym);
  if (typeof stream !== 'object' || stream === null || !('write' in stream)) throw new Error('no log stream');
  const lines: string[] = [];
  const spy = vi.spyOn(stream as { write(line: string): boolean }, 'write').mockImplementation((line) => {
    lines.push(line);
    return true;
  });
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return lines.join('');
}

/** Poll until `check` holds, or fail after `timeoutMs`. */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The server's migrations folder. */
export const MIGRATIONS = path.resolve(import.meta.dirname, '../src/db/migrations');

/**
 * A copy of the migrations folder without those from `tag` on (as an install of an earlier release
 * had them), for a test of a migration on a database with rows in it.
 */
export function migrationsBefore(tag: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'vw-migrations-'));
  cpSync(MIGRATIONS, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.filter((e) => e.tag < tag);
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}
