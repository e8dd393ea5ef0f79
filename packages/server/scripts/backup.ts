// `npm run backup -- --out FILE`: a backup of the running server, through its admin API with the
// local token it keeps in DATA_DIR (or VW_ACCESS_TOKEN, an admin's access token), or with
// --direct straight from the database (PostgreSQL, or PGlite while the server is stopped).
import { createReadStream, createWriteStream, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { BACKUP_TOKEN_HEADER } from '@vitalwatch/shared';
import { verifyBackup } from '../src/backup/format.ts';
import { BACKUP_TOKEN_FILE } from '../src/backup/service.ts';
import { writeBackup } from '../src/backup/snapshot.ts';
import { endProgress, fail, mib, openDatabase, progress, readCliEnv, readKeys, seconds } from './cli-env.ts';

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    url: { type: 'string' },
    direct: { type: 'boolean', default: false },
  },
});
if (!values.out) fail('usage: npm run backup -- --out FILE [--url http://127.0.0.1:3000] [--direct]');
const env = readCliEnv();
const out = path.resolve(values.out);
const partial = `${out}.partial`;
const passphrase = env.BACKUP_PASSPHRASE;
const started = Date.now();

async function throughServer(): Promise<void> {
  const url = `${values.url ?? `http://127.0.0.1:${env.PORT}`}/api/v1/admin/backup`;
  const access = process.env.VW_ACCESS_TOKEN;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (access) headers.authorization = `Bearer ${access}`;
  else headers[BACKUP_TOKEN_HEADER] = readFileSync(path.join(env.dataDir, BACKUP_TOKEN_FILE), 'utf8').trim();
  const res = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify(passphrase ? { passphrase } : {}),
    signal: AbortSignal.timeout(6 * 3600_000),
  });
  if (!res.ok || !res.body) fail(`the server refused the backup: ${res.status} ${await res.text()}`);
  const body = res.body;
  let bytes = 0;
  let shown = 0;
  async function* counted() {
    for await (const chunk of body) {
      bytes += chunk.length;
      if (Date.now() - shown > 1000) {
        shown = Date.now();
        progress(`backup: ${mib(bytes)} received, ${seconds(Date.now() - started)}`);
      }
      yield chunk;
    }
  }
  await pipeline(counted, createWriteStream(partial, { mode: 0o600 }));
}

async function direct(): Promise<void> {
  const database = await openDatabase(env);
  try {
    let shown = 0;
    await writeBackup(
      { database, keys: readKeys(env) },
      createWriteStream(partial, { mode: 0o600 }),
      passphrase,
      (p) => {
        if (Date.now() - shown < 1000) return;
        shown = Date.now();
        progress(`backup: ${p.rows} of ${p.totalRows} rows (${p.table}), ${seconds(Date.now() - started)}`);
      },
    );
  } finally {
    await database.close();
  }
}

try {
  await (values.direct ? direct() : throughServer());
  // A file counts once it reads back whole: every count and the checksum.
  const header = await verifyBackup(() => createReadStream(partial), passphrase);
  renameSync(partial, out);
  const rows = header.tables.reduce((n, t) => n + t.rows, 0);
  const size = statSync(out).size;
  endProgress();
  process.stdout.write(
    `backup written: ${out}\n  ${mib(size)}, ${rows} rows in ${header.tables.length} tables, schema ${header.schema.tag}, ` +
      `${passphrase ? 'encrypted' : 'NOT encrypted (set BACKUP_PASSPHRASE)'}, ${seconds(Date.now() - started)}\n`,
  );
} catch (err) {
  rmSync(partial, { force: true });
  fail(`backup failed: ${(err as Error).message}`);
}
