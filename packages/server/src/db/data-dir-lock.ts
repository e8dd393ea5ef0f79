import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** How long a lock file may stay empty (its writer between creating and writing it) before it counts as abandoned. */
const EMPTY_LOCK_GRACE_MS = 5_000;

/**
 * PGlite is single-process: refuse clearly when another live process holds the directory. The lock
 * file is created only if absent (`wx`), so of two servers started at once on one `DATA_DIR` one
 * gets it and the other is refused. A lock left by a process that is gone is taken over. The
 * release removes the file only while it is still this process's.
 */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const lockFile = path.join(dir, '..', 'pglite.lock');
  const release = () => {
    if (holderOf(lockFile) === process.pid) rmSync(lockFile, { force: true });
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = holderOf(lockFile);
    // This process's own (the database's thread started early, then the database).
    if (holder === process.pid) return release;
    if (holder === 'being written' || (typeof holder === 'number' && isAlive(holder))) {
      throw new Error(
        `The embedded database in ${dir} is in use by ${typeof holder === 'number' ? `process ${holder}` : 'another process'}. Stop it, use another DATA_DIR, or set DATABASE_URL.`,
      );
    }
    rmSync(lockFile, { force: true });
  }
  throw new Error(`Could not lock the embedded database in ${dir}: ${lockFile} keeps coming back.`);
}

/** The pid in the lock file; 'being written' while it is new and empty; undefined once gone or abandoned. */
function holderOf(lockFile: string): number | 'being written' | undefined {
  try {
    const pid = Number(readFileSync(lockFile, 'utf8'));
    if (Number.isInteger(pid) && pid > 0) return pid;
    return Date.now() - statSync(lockFile).mtimeMs < EMPTY_LOCK_GRACE_MS ? 'being written' : undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
