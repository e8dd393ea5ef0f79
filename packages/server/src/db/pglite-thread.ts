import { Worker } from 'node:worker_threads';
import type { WorkerAnswer, WorkerAsk, WorkerStart } from './pglite-protocol.ts';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

interface Waiting {
  resolve(bytes: Uint8Array): void;
  reject(err: Error): void;
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

  /** Starts the thread; answers once its database is up. */
  async start(start: WorkerStart) {
    const worker = new Worker(new URL('./pglite-worker.ts', import.meta.url), {
      workerData: start,
      transferList: start.load ? [start.load] : [],
      // None of the server's flags (its V8 flags, the drizzle hook), but a CPU profile of it too.
      execArgv: process.execArgv.filter((flag) => flag.startsWith('--cpu-prof')),
    });
    this.#worker = worker;
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
    await this.#answerTo(0);
  }

  /** The thread itself (for tests). */
  get worker(): Worker | undefined {
    return this.#worker;
  }

  ask(ask: DistributiveOmit<WorkerAsk, 'id'>): Promise<Uint8Array> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    this.#asked += 1;
    const answer = this.#answerTo(this.#asked);
    this.#worker?.postMessage({ ...ask, id: this.#asked });
    return answer;
  }

  /** Closes the database and ends the thread; what is asked later fails. */
  async close() {
    await this.ask({ op: 'close' }).catch(() => {});
    this.#stop(new Error('PGlite is closed'));
    await this.#worker?.terminate();
  }

  #answerTo(id: number): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      if (this.#waiting.size === 1) this.#worker?.ref();
    });
  }

  #settled(id: number) {
    this.#waiting.delete(id);
    if (this.#waiting.size === 0) this.#worker?.unref();
  }

  /** The thread is gone: every answer awaited fails, and every later ask. */
  #stop(err: Error) {
    this.#stopped ??= err;
    for (const [id, waiting] of this.#waiting) {
      this.#settled(id);
      waiting.reject(this.#stopped);
    }
  }
}
