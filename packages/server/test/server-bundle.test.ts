import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildServerBundle } from '../../../scripts/server-bundle.mjs';
import { serverArgs, serverEnv } from '../../../scripts/server-command.mjs';

const root = path.resolve(import.meta.dirname, '../../..');

/** The packages the server and the shared package declare they need. */
function declaredDependencies(): Set<string> {
  const names = new Set<string>();
  for (const pkg of ['server', 'shared']) {
    const json = JSON.parse(readFileSync(path.join(root, 'packages', pkg, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    for (const name of Object.keys(json.dependencies ?? {})) names.add(name);
  }
  return names;
}

/** The package of each bare specifier the bundle's files import (`@scope/name/sub` → `@scope/name`). */
function bundleImports(dir: string): Set<string> {
  const found = new Set<string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.mjs'))) {
    const code = readFileSync(path.join(dir, file), 'utf8');
    const imports =
      /(?:^import|^export)[^;]*? from "([^".][^"]*)"|^import "([^".][^"]*)"|import\("([^".][^"]*)"\)/gm;
    for (const m of code.matchAll(imports)) {
      const specifier = (m[1] ?? m[2] ?? m[3])!;
      if (specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
      const parts = specifier.split('/');
      found.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
    }
  }
  return found;
}

describe("the server's bundle (scripts/server-bundle.mjs)", () => {
  it('holds our code and drizzle-orm; loads only packages the server declares, as installed', async () => {
    const bundle = await buildServerBundle();
    const imports = bundleImports(bundle.dir);
    expect(imports.has('fastify')).toBe(true);
    expect(imports.has('drizzle-orm')).toBe(false);
    expect([...imports].filter((name) => name.startsWith('@vitalwatch/'))).toEqual([]);
    const declared = declaredDependencies();
    expect([...imports].filter((name) => !declared.has(name))).toEqual([]);
  });

  it('is what a server process runs: it migrates from the sources, and on a restart its database starts early', async () => {
    const bundle = await buildServerBundle();
    expect(serverArgs().at(-1)).toBe(bundle.main);
    // The database's thread is the bundle's own worker file, not the sources'.
    const code = readdirSync(bundle.dir)
      .filter((f) => f.endsWith('.mjs'))
      .map((f) => readFileSync(path.join(bundle.dir, f), 'utf8'))
      .join('\n');
    expect(code).toContain('new URL("./pglite-worker.mjs", import.meta.url)');
    expect(code).not.toContain('pglite-worker.ts"');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'vw-bundle-'));
    try {
      // The first start creates the database (migrations read beside the sources); the second finds it there
      // and starts its thread (the bundle's worker file) before loading the rest (db/pglite-head-start.ts).
      for (const start of ['first', 'restart']) {
        const server = await startBundled(dataDir);
        try {
          expect((await fetch(`${server.url}/readyz`)).status, start).toBe(200);
          const login = await fetch(`${server.url}/api/v1/user/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ user: { username: 'admin', password: 'Admin-Passw0rd1' } }),
          });
          expect(login.status, start).toBe(200);
        } finally {
          await server.stop();
        }
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('loads what only some servers or requests use when first needed, not at start', async () => {
    await buildServerBundle();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'vw-bundle-'));
    const record = path.join(dataDir, 'loaded-packages.txt');
    try {
      const server = await startBundled(dataDir, {
        flags: ['--import', path.join(import.meta.dirname, 'loaded-packages.mjs')],
        env: { LOADED_PACKAGES_FILE: record },
      });
      try {
        expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      } finally {
        await server.stop();
      }
      const loaded = readFileSync(record, 'utf8').split('\n');
      // Recorded: the packages every start needs.
      expect(loaded).toEqual(expect.arrayContaining(['fastify', 'pg', 'socket.io', 'aedes']));
      // Not loaded without REDIS_URL, MQTT_URL, an email or a push sent; nor before a PDF or a two-factor QR code.
      const onDemand = [
        'ioredis',
        '@socket.io/redis-adapter',
        'mqtt',
        'nodemailer',
        'web-push',
        'pdfkit',
        'fontkit',
        'qrcode',
      ];
      expect(loaded.filter((name) => onDemand.includes(name))).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

/**
 * A server started as `npm start` starts it, on the embedded database in `dataDir`, once it says where it runs;
 * with Node's `flags` and `env` added.
 */
async function startBundled(
  dataDir: string,
  extra: { flags?: string[]; env?: Record<string, string> } = {},
): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, serverArgs(extra.flags), {
    cwd: root,
    env: serverEnv({
      ...process.env,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      MQTT_URL: '',
      MQTT_PORT: '0',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: 'Admin-Passw0rd1',
      ...extra.env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
  };
  let output = '';
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start within 60 s:\n${output}`)), 60_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /running at (http:\/\/\S+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      void exited.then((code) => reject(new Error(`exited with ${code}:\n${output}`)));
    });
    return { url, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
