import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { lockDataDir } from './data-dir-lock.ts';
import type { WorkerStart } from './pglite-protocol.ts';

/** The embedded database's thread (`pglite-worker.ts`), started on `start`. */
function newWorker(start: WorkerStart): Worker {
  return new Worker(new URL('./pglite-worker.ts', import.meta.url), {
    workerData: start,
    transferList: start.load ? [start.load] : [],
    // None of the server's flags (its V8 flags), but a CPU profile of it too.
    execArgv: process.execArgv.filter((flag) => flag.startsWith('--cpu-prof')),
  });
}

/** Events a worker gives its owner; those of a thread started early are kept until it is taken. */
const EVENTS = ['message', 'error', 'exit'] as const;

interface HeadStart {
  dataDir: string;
  worker: Worker;
  events: [event: (typeof EVENTS)[number], arg: unknown][];
  /** The listeners that keep them, taken off when it is taken. */
  keep: Map<(typeof EVENTS)[number], (arg: unknown) => void>;
}

let early: HeadStart | undefined;

/**
 * Starts the thread of the embedded database in `dataDir` before the server has loaded the rest of its
 * code, so PostgreSQL's own start (0.7 s of the thread's CPU on a restart) runs on the other core
 * meanwhile. Only a database that exists: a first start (initdb) cut short by a failure to load would
 * leave half a cluster. The directory is locked first, as `createDatabase` does; if another process
 * holds it, nothing starts here and `createDatabase` says so. Returns the thread (for tests).
 */
export function startEarly(dataDir: string): Worker | undefined {
  if (early || !existsSync(path.join(dataDir, 'PG_VERSION'))) return undefined;
  try {
    lockDataDir(dataDir);
  } catch {
    return undefined;
  }
  const worker = newWorker({ dataDir });
  const events: HeadStart['events'] = [];
  const keep: HeadStart['keep'] = new Map();
  for (const event of EVENTS) {
    keep.set(event, (arg: unknown) => events.push([event, arg]));
    worker.on(event, keep.get(event)!);
  }
  early = { dataDir, worker, events, keep };
  return worker;
}

/**
 * The thread for `start`, heard by `hear` (which adds its listeners) from its first event: the thread
 * started early on that directory if there is one, with what it said so far told again, else a new one.
 * A thread started early on another directory is ended first.
 */
export async function threadFor(start: WorkerStart, hear: (worker: Worker) => void): Promise<Worker> {
  const taken = early;
  early = undefined;
  if (taken && taken.dataDir === start.dataDir && !start.load) {
    for (const [event, listener] of taken.keep) taken.worker.off(event, listener);
    hear(taken.worker);
    for (const [event, arg] of taken.events) taken.worker.emit(event, arg);
    return taken.worker;
  }
  await taken?.worker.terminate();
  const worker = newWorker(start);
  hear(worker);
  return worker;
}
