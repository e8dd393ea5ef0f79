import type { Worker } from 'node:worker_threads';
import { withTimeout } from '../lib/time-limit.ts';
import { threadFor } from './pglite-head-start.ts';
import type { WorkerAnswer, WorkerAsk, WorkerStart } from './pglite-protocol.ts';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** How often the time limit of the ask under way is checked: a limit holds to within this. */
const WATCH_EVERY_MS = 250;

interface Waiting {
  resolve(bytes: Uint8Array): void;
  reject(err: Error): void;
  /** The longest the thread may take over it, once it starts on it (none: no limit). */
  limitMs?: number;
}

/**
 * The server's side of the embedded database's thread (`pglite-worker.ts`): starts it, asks it
 * things and hands each answer to whoever asked. The thread answers in the order asked, so asks
 * need not wait for each other: the next is there when it finishes one. It keeps the process alive
 * while an answer is awaited, not when idle (a script that forgot to close still ends).
 */
export class PGliteThread {
  #worker: Worker | undefined;
  readonly #waiting = new Map<number, Waiting>();
  #asked = 0;
  /** Why nothing more can be asked (closed, or the thread ended). */
  #stopped: Error | undefined;
  #closing = false;
  /** Whether its database came up: before, an end is the start's failure, not a crash. */
  #started = false;
  /** Checks the time limit of the ask the thread is on, for as long as the thread runs. */
  #watch: NodeJS.Timeout | undefined;
  /** When the thread started on the first ask awaited (it answered the one before, or was idle). */
  #firstSince = 0;
  /** Settles once the thread has exited (at once if it never started). */
  #exited: Promise<void> = Promise.resolve();
  readonly #onEnded: (err: Error) => void;

  /** `onEnded`: told once if the thread ends (a crash) other than by `close`. */
  constructor(onEnded: (err: Error) => void = () => {}) {
    this.#onEnded = onEnded;
  }

  /**
   * Starts the thread; answers once its database is up. A database that fails to start ends its
   * thread, and every ask fails with the reason.
   */
  async start(start: WorkerStart) {
    // The first answer (0) says the database is up: awaited before the thread is heard, as a thread
    // started early (pglite-head-start.ts) may have given it already.
    const ready = this.#answerTo(0);
    ready.catch(() => {});
    const worker = await threadFor(start, (heard) => this.#hear(heard));
    try {
      await ready;
      // A thread started early may have ended after saying it was up: a start that failed.
      if (this.#stopped) throw this.#stopped;
      this.#started = true;
      // One timer for the thread's life: one per statement, or per burst of them, cost more.
      this.#watch = setInterval(() => this.#checkFirst(), WATCH_EVERY_MS).unref();
    } catch (err) {
      this.#closing = true;
      this.#stop(err as Error);
      await worker.terminate();
      throw err;
    }
  }

  #hear(worker: Worker) {
    this.#worker = worker;
    this.#exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.on('message', (answer: WorkerAnswer) => {
      const waiting = this.#waiting.get(answer.id);
      if (!waiting) return;
      this.#settled(answer.id);
      if ('failed' in answer) waiting.reject(new Error(answer.failed));
      else waiting.resolve(answer.bytes);
    });
    worker.on('error', (err) => this.#stop(err));
    worker.on('exit', (code) =>
      this.#stop(new Error(`the embedded database's thread ended (exit code ${code})`)),
    );
  }

  /** Settles once the thread has exited: no database of it runs any more. */
  get exited(): Promise<void> {
    return this.#exited;
  }

  /** Why the thread can take no more asks (it ended, or was closed); undefined while it can. */
  get ended(): Error | undefined {
    return this.#stopped;
  }

  /** The thread itself (for tests). */
  get worker(): Worker | undefined {
    return this.#worker;
  }

  /**
   * `limitMs`: if the thread is still on this ask that long after starting it, the thread is
   * stopped (PGlite has no `statement_timeout`: PostgreSQL's timers need signals WebAssembly does
   * not have), and this ask and every other under way fail. It ends as a crash does.
   */
  ask(ask: DistributiveOmit<WorkerAsk, 'id'>, limitMs?: number): Promise<Uint8Array> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    this.#asked += 1;
    const answer = this.#answerTo(this.#asked, limitMs);
    this.#worker?.postMessage({ ...ask, id: this.#asked });
    return answer;
  }

  /** Closes the database and ends the thread; what is asked later fails. */
  async close() {
    this.#closing = true;
    await this.ask({ op: 'close' }).catch(() => {});
    this.#stop(new Error('PGlite is closed'));
    await this.#worker?.terminate();
  }

  #answerTo(id: number, limitMs?: number): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject, limitMs });
      if (this.#waiting.size === 1) {
        this.#worker?.ref();
        this.#firstSince = performance.now();
      }
    });
  }

  #settled(id: number) {
    this.#waiting.delete(id);
    this.#firstSince = performance.now();
    if (this.#waiting.size === 0) this.#worker?.unref();
  }

  /**
   * Stops the thread if the ask it is on (the first awaited: it answers in order) has run past its
   * limit. A check every so often rather than a timer per ask: one for each statement cost more.
   */
  #checkFirst() {
    const overdue = () => {
      const [first] = this.#waiting;
      const limitMs = first?.[1].limitMs;
      return limitMs !== undefined && performance.now() - this.#firstSince > limitMs ? first : undefined;
    };
    const first = overdue();
    if (!first) return;
    // Timers run before the answers waiting on the port are read: a server's thread that was busy
    // past the limit would stop a database that had answered. Stopped if still overdue once read.
    setImmediate(() => {
      if (overdue()?.[0] !== first[0]) return;
      this.end(
        new Error(
          `a statement ran longer than ${first[1].limitMs} ms: the embedded database's thread was stopped`,
        ),
      );
    });
  }

  /** Stops the thread, as if it had crashed: what is under way, and every later ask, fails with `reason`. */
  end(reason: Error) {
    if (this.#stopped) return;
    this.#stop(reason);
    void this.#worker?.terminate();
  }

  /** The thread is gone: every answer awaited fails, and every later ask. */
  #stop(err: Error) {
    clearInterval(this.#watch);
    if (!this.#stopped && !this.#closing && this.#started) this.#onEnded(err);
    this.#stopped ??= err;
    for (const [id, waiting] of this.#waiting) {
      this.#settled(id);
      waiting.reject(this.#stopped);
    }
  }
}

/** After a failed restart, asks fail at once for this long before the next try. */
export const RESTART_RETRY_MS = 5_000;
/** The longest an ask waits for the thread to be started again. */
const RESTART_WAIT_MS = 10_000;

export interface RestartingThreadOptions {
  /** Told when a thread ends other than by `close`, and whether a new one is started. */
  onEnded?: (err: Error, restarting: boolean) => void;
  /** A new thread is up: what the last one held (prepared statements) is gone. */
  onRestarted: () => void;
}

/**
 * The embedded database's thread, started again after a crash. If the thread ends (PostgreSQL
 * aborts, the thread runs out of memory), what was under way fails, and a database on disk is
 * started again at once on the same directory, as PostgreSQL's postmaster restarts after a backend
 * crashed: its recovery replays the write-ahead log, so every committed write is still there. Asks
 * made meanwhile wait for it (10 s at most). A statement that runs past its time limit ends the
 * thread the same way. If that start fails, asks fail with its reason, and the next start is tried
 * 5 s later. A database in memory died with its thread: asks fail from then on.
 */
export class RestartingThread {
  #thread: PGliteThread;
  /** Where the database is on disk, once it first started there (none: in memory). */
  #dataDir: string | undefined;
  #closed = false;
  #restart: Promise<void> | undefined;
  /** When the last restart failed, and why. */
  #restartFailed: { at: number; err: Error } | undefined;
  readonly #options: RestartingThreadOptions;

  constructor(options: RestartingThreadOptions) {
    this.#options = options;
    this.#thread = this.#newThread();
  }

  /** The first thread: answers once its database is up (a failed start is not tried again). */
  async start(start: WorkerStart) {
    await this.#thread.start(start);
    this.#dataDir = start.dataDir;
  }

  /** The current thread itself (for tests). */
  get worker(): Worker | undefined {
    return this.#thread.worker;
  }

  /** The thread to ask now: after a crash, the new one once it is up (or why there is none). */
  async live(): Promise<PGliteThread> {
    return this.#thread.ended ? this.#live() : this.#thread;
  }

  /**
   * A time limit for an ask (see `PGliteThread.ask`), for a database on disk only: one in memory
   * would be lost with its thread, so a statement there runs as long as it takes.
   */
  limit(limitMs: number | undefined): number | undefined {
    return this.#dataDir === undefined ? undefined : limitMs;
  }

  /** Closes the database (the new thread's, if one is starting) and ends the thread. */
  async close() {
    this.#closed = true;
    await this.#restart?.catch(() => {});
    await this.#thread.close();
  }

  #newThread() {
    return new PGliteThread((err) => {
      const restarting = this.#dataDir !== undefined && !this.#closed;
      this.#options.onEnded?.(err, restarting);
      if (restarting) this.#restartThread().catch(() => {});
    });
  }

  /**
   * A new thread on the same data directory, one start at a time, once the last one has exited:
   * two databases on one directory would each write over the other's files.
   */
  #restartThread(): Promise<void> {
    this.#restart ??= (async () => {
      const ended = this.#thread;
      const thread = this.#newThread();
      try {
        await withTimeout(ended.exited, RESTART_WAIT_MS, "the embedded database's thread ending");
        await thread.start({ dataDir: this.#dataDir });
        this.#thread = thread;
        this.#restartFailed = undefined;
        this.#options.onRestarted();
      } catch (err) {
        this.#restartFailed = { at: Date.now(), err: err as Error };
        throw err;
      } finally {
        this.#restart = undefined;
      }
    })();
    return this.#restart;
  }

  /** The thread to ask after one ended: the new one once it is up, or the ended one (its asks fail). */
  async #live(): Promise<PGliteThread> {
    if (this.#dataDir === undefined || this.#closed) return this.#thread;
    const failed = this.#restartFailed;
    if (failed && Date.now() - failed.at < RESTART_RETRY_MS) throw failed.err;
    await withTimeout(this.#restartThread(), RESTART_WAIT_MS, "restarting the embedded database's thread");
    return this.#thread;
  }
}
