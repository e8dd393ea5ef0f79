import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { BackupKeys } from '../src/backup/format.ts';
import { createDatabase, type Database } from '../src/db/index.ts';
import { VAPID_KEYS_FILE } from '../src/push-delivery/vapid-keys.ts';

/**
 * What the backup tools read of the server's environment. Not `loadConfig`: that makes new keys in
 * an empty DATA_DIR, where a restore must put the backup's own.
 */
const cliEnv = z.object({
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  JWT_SECRET: z.string().min(32).optional(),
  BACKUP_PASSPHRASE: z.string().min(1).optional(),
});
export type CliEnv = z.output<typeof cliEnv> & { dataDir: string };

export function readCliEnv(source: NodeJS.ProcessEnv = process.env): CliEnv {
  const parsed = cliEnv.safeParse(source);
  if (!parsed.success) {
    fail(parsed.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`).join('\n'));
  }
  return { ...parsed.data, dataDir: path.resolve(parsed.data.DATA_DIR) };
}

/**
 * The client's wait for one query: above the 4 hours the move's verification (a scan of each whole
 * table) sets as the server's own limit for it; requests keep 20 s.
 */
export const TOOL_QUERY_TIMEOUT_MS = (4 * 60 + 5) * 60_000;

export function openDatabase(env: CliEnv, databaseUrl = env.DATABASE_URL): Promise<Database> {
  return createDatabase({
    databaseUrl,
    pgliteDir: path.join(env.dataDir, 'pglite'),
    poolSize: 4,
    queryTimeoutMs: TOOL_QUERY_TIMEOUT_MS,
  });
}

/** The server's keys as it keeps them: JWT_SECRET or DATA_DIR/secrets.json, and DATA_DIR/vapid.json. */
export function readKeys(env: CliEnv): BackupKeys {
  const secrets = path.join(env.dataDir, 'secrets.json');
  const jwtSecret =
    env.JWT_SECRET ??
    (existsSync(secrets)
      ? z.object({ jwtSecret: z.string().min(32) }).parse(JSON.parse(readFileSync(secrets, 'utf8'))).jwtSecret
      : undefined);
  if (!jwtSecret) fail(`no keys: neither JWT_SECRET nor ${secrets}`);
  const vapidFile = path.join(env.dataDir, VAPID_KEYS_FILE);
  const vapid = existsSync(vapidFile)
    ? z
        .object({ publicKey: z.string(), privateKey: z.string() })
        .parse(JSON.parse(readFileSync(vapidFile, 'utf8')))
    : null;
  return { jwtSecret, vapid };
}

export function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** One progress line, rewritten in place on a terminal. */
export function progress(text: string): void {
  if (process.stderr.isTTY) process.stderr.write(`\r${text}\x1b[K`);
  else process.stderr.write(`${text}\n`);
}

/** Ends a progress line on a terminal (elsewhere each was a line of its own). */
export function endProgress(): void {
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
}
