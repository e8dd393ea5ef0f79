import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** How long a lock file may stay empty (its writer between creating and writing it) before it counts as abandoned. */
const EMPTY_LOCK_GRACE_MS = 5_000;

/**
 * PGlite is single-process: refuse clearly when another live process holds the directory. The lock
 * file is created only if absent (`wx`), so of two servers started at once on one `DATA_DIR` one
 * gets it and the other is refused. A lock left by a process that is gone is taken over by one
 * process at a time: the takeover holds a lock of its own while it reads the holder again, removes
 * the old lock and creates its own, so two servers starting after a crash cannot both take it. The
 * release removes the file only while it is still this process's.
 */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const lockFile = path.join(dir, '..', 'pglite.lock');
  const release = () => {
    if (holderOf(lockFile) === process.pid) rmSync(lockFile, { force: true });
  };
  if (create(lockFile)) return release;
  // This process's own (the database's thread started early, then the database).
  if (holderOf(lockFile) === process.pid) return release;
  refuseIfHeld(dir, lockFile);
  // A takeover's own lock left by a process that died taking over is removed (once).
  const takeover = `${lockFile}.takeover`;
  if (!create(takeover)) {
    refuseIfHeld(dir, takeover);
    rmSync(takeover, { force: true });
    if (!create(takeover)) throw inUse(dir, 'another process');
  }
  try {
    refuseIfHeld(dir, lockFile);
    rmSync(lockFile, { force: true });
    if (!create(lockFile)) throw inUse(dir, 'another process');
    return release;
  } finally {
    rmSync(takeover, { force: true });
  }
}

/** Creates `file` holding this process's pid unless it exists; false when it does. */
function create(file: string): boolean {
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/** Throws unless `file` is gone, abandoned, this process's, or a process's that is gone. */
function refuseIfHeld(dir: string, file: string) {
  const holder = holderOf(file);
  if (holder === 'being written') throw inUse(dir, 'another process');
  if (typeof holder === 'number' && holder !== process.pid && isAlive(holder))
    throw inUse(dir, `process ${holder}`);
}

const inUse = (dir: string, who: string) =>
  new Error(
    `The embedded database in ${dir} is in use by ${who}. Stop it, use another DATA_DIR, or set DATABASE_URL.`,
  );

/**
 * The pid in a lock file; 'being written' while it is new and empty; undefined once gone or
 * abandoned (empty for longer). A pid is returned whether or not its process lives.
 */
function holderOf(file: string): number | 'being written' | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8'));
    if (Number.isInteger(pid) && pid > 0) return pid;
    return Date.now() - statSync(file).mtimeMs < EMPTY_LOCK_GRACE_MS ? 'being written' : undefined;
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
