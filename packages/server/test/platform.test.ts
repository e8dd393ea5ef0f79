import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { bootstrapAdmin } from '../src/bootstrap-admin.ts';
import { ConfigError, loadConfig, parseEnv } from '../src/config.ts';
import { createDatabase } from '../src/db/index.ts';
import { users } from '../src/db/schema.ts';
import { dbTargets, unique, useTestApp } from './helpers.ts';
import { startServer, stop, waitForOutput } from './server-process.ts';

const tempDir = () => mkdtempSync(path.join(tmpdir(), 'vw-platform-'));

describe('configuration', () => {
  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ DATABASE_URL: 'http://db.example' }, 'DATABASE_URL'],
    [{ MQTT_PORT: '-1' }, 'MQTT_PORT'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ TRUST_PROXY: 'the-balancer' }, 'TRUST_PROXY'],
  ])('refuses %o with a message naming %s', (env, name) => {
    expect(() => parseEnv(env)).toThrow(ConfigError);
    expect(() => parseEnv(env)).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}: `));
  });

  it('reads TRUST_PROXY as off, any, or addresses and CIDR ranges, never a hop count', () => {
    expect(parseEnv({}).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(() => parseEnv({ TRUST_PROXY: '2' })).toThrow(/TRUST_PROXY: must be true or/);
    expect(parseEnv({ TRUST_PROXY: '10.0.0.0/8, ::1' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '::1']);
  });

  it('generates the JWT secret once and keeps it in DATA_DIR', () => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(first.jwtSecret).toHaveLength(64);
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(loadConfig({ DATA_DIR: tempDir() }).jwtSecret).not.toBe(first.jwtSecret);
  });

  it('an unreachable PostgreSQL server stops `main.ts` with a message naming it', async () => {
    await expect(
      startServer({ DATA_DIR: tempDir(), DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' }),
    ).rejects.toThrow(
      /exited with 1:[\s\S]*cannot reach the PostgreSQL server at 127\.0\.0\.1:1 \(DATABASE_URL\)/,
    );
  });

  it('a bad value stops `main.ts` with a clear message and exit code 1', async () => {
    await expect(startServer({ DATA_DIR: tempDir(), MQTT_URL: 'ftp://broker' })).rejects.toThrow(
      /exited with 1:[\s\S]*Invalid configuration:\n {2}MQTT_URL: must start with mqtt:\/\//,
    );
  });
});

describe('behind a load balancer (TRUST_PROXY)', () => {
  const [pglite] = dbTargets();
  const built = useTestApp(pglite!, {
    trustProxy: ['10.0.0.1'],
    loginLimits: { perIpPerMinute: 2, perAccountFailures: 10, perAccountWindowMs: 15 * 60_000 },
  });

  it('counts the client behind a trusted proxy by X-Forwarded-For, and ignores it from anyone else', async () => {
    const { app } = built();
    const attempt = (remoteAddress: string, forwardedFor: string) =>
      app
        .inject({
          method: 'POST',
          url: '/api/v1/user/login',
          remoteAddress,
          headers: { 'x-forwarded-for': forwardedFor },
          payload: { user: { username: unique('someone'), password: 'Whatever1' } },
        })
        .then((r) => r.statusCode);
    // Through the balancer: each client has its own count.
    expect([await attempt('10.0.0.1', '198.51.100.1'), await attempt('10.0.0.1', '198.51.100.1')]).toEqual([
      401, 401,
    ]);
    expect(await attempt('10.0.0.1', '198.51.100.1')).toBe(429);
    expect(await attempt('10.0.0.1', '198.51.100.2')).toBe(401);
    // From elsewhere the header is a lie: the sender's own address counts.
    expect([await attempt('192.0.2.9', '198.51.100.3'), await attempt('192.0.2.9', '198.51.100.4')]).toEqual([
      401, 401,
    ]);
    expect(await attempt('192.0.2.9', '198.51.100.5')).toBe(429);
  });
});

describe('sign-up limit per address', () => {
  const [pglite] = dbTargets();
  const built = useTestApp(pglite!, { signupsPerAddressPerHour: 2 });

  it('refuses a third sign-up attempt from one address within the hour (429), taken names or not', async () => {
    const attempt = (remoteAddress: string) => {
      const username = unique('probe');
      return built()
        .app.inject({
          method: 'POST',
          url: '/api/v1/user/create',
          remoteAddress,
          payload: {
            user: {
              fullName: 'Probe',
              username,
              email: `${username}@example.com`,
              password: 'Passw0rd!',
              cnfPassword: 'Passw0rd!',
            },
          },
        })
        .then((r) => [r.statusCode, r.headers['retry-after'] !== undefined] as const);
    };
    expect(await attempt('203.0.113.7')).toEqual([201, false]);
    expect(await attempt('203.0.113.7')).toEqual([201, false]);
    expect(await attempt('203.0.113.7')).toEqual([429, true]);
    expect((await attempt('203.0.113.8'))[0]).toBe(201);
  });
});

describe.each(dbTargets())('platform on $name', (target) => {
  const built = useTestApp(target, {
    loginLimits: { perIpPerMinute: 5, perAccountFailures: 10, perAccountWindowMs: 15 * 60_000 },
  });

  it('limits login attempts per IP address (429 with Retry-After), whatever the account', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await built().app.inject({
        method: 'POST',
        url: '/api/v1/user/login',
        remoteAddress: '10.9.8.7',
        payload: { user: { username: unique('someone'), password: 'Whatever1' } },
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const otherAddress = await built().app.inject({
      method: 'POST',
      url: '/api/v1/user/login',
      remoteAddress: '10.9.8.8',
      payload: { user: { username: unique('someone'), password: 'Whatever1' } },
    });
    expect(otherAddress.statusCode).toBe(401);
  });

  it('counts IPv6 clients by their /64, so rotating addresses in it does not escape the limit', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) {
      const res = await built().app.inject({
        method: 'POST',
        url: '/api/v1/user/login',
        remoteAddress: `2001:db8:7:1::${i.toString(16)}`,
        payload: { user: { username: unique('someone'), password: 'Whatever1' } },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('bootstraps one admin with a printed password when none exists, and never again', async () => {
    const ctx = built().ctx;
    const admins = async () =>
      (await ctx.db.select({ n: count() }).from(users).where(eq(users.role, 'admin')))[0]!.n;
    const before = await admins();
    const first = await bootstrapAdmin(ctx);
    if (before === 0) {
      expect(first.kind).toBe('generated');
      if (first.kind !== 'generated') return;
      const login = await built().app.inject({
        method: 'POST',
        url: '/api/v1/user/login',
        payload: { user: { username: first.username, password: first.password } },
      });
      expect(login.json().data.user.role).toBe('admin');
    }
    expect((await bootstrapAdmin(ctx)).kind).toBe('existing');
    expect(await admins()).toBe(Math.max(before, 1));
  });

  it('ensures the configured ADMIN_* admin exists, promoting an existing user of that name', async () => {
    const ctx = built().ctx;
    const username = unique('boss');
    await ctx.users.createUser({
      fullName: 'Boss',
      username,
      email: `${username}@example.com`,
      password: 'Passw0rd!',
    });
    const configured = { ...ctx, config: { ...ctx.config, admin: { username, password: 'Another1Pass' } } };
    expect(await bootstrapAdmin(configured)).toEqual({ kind: 'configured', username, created: false });
    const login = await built().app.inject({
      method: 'POST',
      url: '/api/v1/user/login',
      payload: { user: { username, password: 'Passw0rd!' } },
    });
    expect(login.json().data.user.role).toBe('admin');

    const fresh = unique('root');
    const created = {
      ...ctx,
      config: { ...ctx.config, admin: { username: fresh, password: 'Fresh1Password' } },
    };
    expect(await bootstrapAdmin(created)).toEqual({ kind: 'configured', username: fresh, created: true });
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('migrations on the PostgreSQL server', () => {
  it('two processes migrating an empty database at once both succeed, under the advisory lock', async () => {
    const url = process.env.TEST_DATABASE_URL!;
    const name = `vw_migrate_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const scratch = new URL(url);
    scratch.pathname = `/${name}`;
    const a = await createDatabase({ databaseUrl: scratch.toString(), pgliteDir: 'memory', poolSize: 2 });
    const b = await createDatabase({ databaseUrl: scratch.toString(), pgliteDir: 'memory', poolSize: 2 });
    try {
      await Promise.all([a.migrate(), b.migrate()]);
      // information_schema lists the tables of the database it is asked in: ask the scratch one.
      const check = new pg.Client({ connectionString: scratch.toString() });
      await check.connect();
      try {
        const tables = await check.query(
          "select count(*)::int as n from information_schema.tables where table_schema = 'public' and table_name in ('users', 'devices', 'alerts')",
        );
        expect(tables.rows[0]!.n).toBe(3);
      } finally {
        await check.end();
      }
    } finally {
      await a.close();
      await b.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});

describe('graceful shutdown of main.ts', () => {
  it('on SIGTERM finishes the request in flight, then exits 0 and releases the embedded database', async () => {
    const dataDir = tempDir();
    // debug: the request's arrival is logged, so the test knows it is in flight.
    const server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: 'debug' });
    const { port } = new URL(server.url);
    const body = JSON.stringify({ user: { username: 'nobody', password: 'Wrong1234' } });
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    let response = '';
    socket.on('data', (chunk) => {
      response += chunk.toString();
    });
    // Headers and half the body: the request is in flight when the signal arrives.
    socket.write(
      `POST /api/v1/user/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    await waitForOutput(server, '"url":"/api/v1/user/login"');
    const exited = new Promise<number | null>((resolve) =>
      server.child.once('exit', (code) => resolve(code)),
    );
    server.child.kill('SIGTERM');
    await waitForOutput(server, 'shutting down');
    // write, not end: a client that half-closes makes Node abort its request by design.
    socket.write(body.slice(10));
    const code = await exited;
    expect(response).toMatch(/^HTTP\/1\.1 401 /);
    expect(response).toContain('Invalid username/email or password');
    expect(code).toBe(0);
    expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);
    await stop(server);
  }, 60_000);
});
