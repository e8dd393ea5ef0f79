// `npm run db:move -- --to postgres://…`: the embedded database in DATA_DIR (its server stopped)
// into an empty PostgreSQL database, in batches with a checkpoint: run it again after an
// interruption and it goes on where it stopped. Prints a verification at the end.
import { parseArgs } from 'node:util';
import { moveDatabase } from '../src/backup/move.ts';
import { RestoreRefused } from '../src/backup/restore.ts';
import { endProgress, fail, openDatabase, progress, readCliEnv, seconds } from './cli-env.ts';

const { values } = parseArgs({ options: { to: { type: 'string' } } });
if (!values.to || !/^postgres(ql)?:\/\//.test(values.to))
  fail('usage: npm run db:move -- --to postgres://user:pw@host:5432/db');
const env = readCliEnv();
const started = Date.now();
const source = await openDatabase(env, undefined).catch((err: Error) => fail(err.message));
const target = await openDatabase(env, values.to).catch((err: Error) => fail(err.message));
let failure: string | undefined;
try {
  let shown = 0;
  const verification = await moveDatabase(source, target, (p) => {
    if (Date.now() - shown < 1000) return;
    shown = Date.now();
    const rate = Math.round(p.rows / ((Date.now() - started) / 1000));
    progress(
      `${p.resumed ? 'resumed: ' : ''}${p.rows} of ${p.totalRows} rows (${p.table}), ${rate} rows/s, ${seconds(Date.now() - started)}`,
    );
  });
  endProgress();
  const bad = verification.filter((v) => v.source !== v.target || v.sourceSum !== v.targetSum);
  process.stdout.write(
    `moved in ${seconds(Date.now() - started)}; verification (rows, and an MD5 of about 1 row in 1000 on each side):\n${verification
      .map(
        (v) =>
          `  ${v.table.padEnd(28)} ${String(v.source).padStart(12)} → ${String(v.target).padStart(12)}  sample ${v.sampled}: ${v.sourceSum === v.targetSum ? 'same' : 'DIFFERENT'}`,
      )
      .join('\n')}\n`,
  );
  if (bad.length > 0) failure = `${bad.length} tables differ`;
  else process.stdout.write('Set DATABASE_URL to the new database and start the server.\n');
} catch (err) {
  endProgress();
  failure =
    err instanceof RestoreRefused
      ? `move refused: ${err.message}`
      : `move stopped: ${(err as Error).message} (run it again to go on)`;
} finally {
  await source.close();
  await target.close();
}
if (failure) fail(failure);
