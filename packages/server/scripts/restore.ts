// `npm run restore -- FILE`: a backup into an empty DATA_DIR (embedded database) or an empty
// PostgreSQL database (DATABASE_URL); the server must not be running on it.
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BackupFileError } from '../src/backup/crypto.ts';
import { RestoreRefused, restoreBackup } from '../src/backup/restore.ts';
import { endProgress, fail, openDatabase, progress, readCliEnv, seconds } from './cli-env.ts';

const { positionals } = parseArgs({ allowPositionals: true });
const file = positionals[0];
if (!file) fail('usage: npm run restore -- FILE   (DATA_DIR or DATABASE_URL names the empty target)');
const env = readCliEnv();
const started = Date.now();
const database = await openDatabase(env).catch((err: Error) => fail(err.message));
let failure: string | undefined;
try {
  let shown = 0;
  const result = await restoreBackup(database, {
    source: () => createReadStream(path.resolve(file)),
    passphrase: env.BACKUP_PASSPHRASE,
    dataDir: env.dataDir,
    onProgress: (p) => {
      if (Date.now() - shown < 1000) return;
      shown = Date.now();
      progress(
        `${p.phase === 'verify' ? 'checking' : 'writing'}: ${p.rows} of ${p.totalRows} rows, ${seconds(Date.now() - started)}`,
      );
    },
  });
  endProgress();
  const lines = result.counts.map(
    (c) =>
      `  ${c.table.padEnd(28)} ${String(c.actual).padStart(12)}${c.actual === c.expected ? '' : `  (backup: ${c.expected})`}`,
  );
  const target = env.DATABASE_URL ? 'PostgreSQL' : path.join(env.dataDir, 'pglite');
  process.stdout.write(
    `restored ${file} (schema ${result.header.schema.tag}, taken ${result.header.createdAt}) into ${target} in ${seconds(Date.now() - started)}\n${lines.join('\n')}\n`,
  );
  const mismatched = result.counts.filter((c) => c.actual !== c.expected);
  if (mismatched.length > 0) failure = `${mismatched.length} tables do not match the backup`;
} catch (err) {
  endProgress();
  failure =
    err instanceof BackupFileError || err instanceof RestoreRefused
      ? `restore refused: ${err.message}`
      : `restore failed: ${(err as Error).message}`;
} finally {
  await database.close();
}
if (failure) fail(failure);
