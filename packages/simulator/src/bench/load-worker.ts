import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import {
  type LoadReadOptions,
  loadRead,
  type Measured,
  type MeasureOptions,
  measure,
  type ReadResult,
} from './http-load.ts';

type Job =
  | { kind: 'measure'; options: MeasureOptions; path: string }
  | { kind: 'read'; options: LoadReadOptions };
type Answer = { id: number; result?: unknown; error?: string };

const run = (job: Job): Promise<unknown> =>
  job.kind === 'measure' ? measure(job.options, job.path) : loadRead(job.options);

/**
 * The HTTP benchmarks' load generator, in a thread of its own. Timed on the bench's main thread, a
 * request's time included that thread's garbage collections: its heap holds 60–80 MB (the browser
 * driver, the seeding's leftovers), a major collection there paused it 34–49 ms, and every request
 * in flight (10 at once) then finished late together. In the admin bench each list whose p99
 * crossed 50 ms coincided to the millisecond with such a pause of the bench, not of the server
 * (whose pauses were at most 16 ms). A worker has a heap of its own, a few MB, collected apart.
 */
export class LoadWorker {
  private readonly worker = new Worker(new URL(import.meta.url));
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 0;

  constructor() {
    this.worker.on('message', ({ id, result, error }: Answer) => {
      const job = this.pending.get(id);
      this.pending.delete(id);
      if (error === undefined) job?.resolve(result);
      else job?.reject(new Error(error));
    });
    this.worker.on('error', (err) => this.failAll(err));
    this.worker.on('exit', (code) => this.failAll(new Error(`the load worker exited (${code})`)));
  }

  /** `measure` (see `http-load.ts`), run in the worker. */
  measure(options: MeasureOptions, path: string): Promise<Measured> {
    return this.send({ kind: 'measure', options, path }) as Promise<Measured>;
  }

  /** `loadRead` (see `http-load.ts`), run in the worker. */
  loadRead(options: LoadReadOptions): Promise<ReadResult> {
    return this.send({ kind: 'read', options }) as Promise<ReadResult>;
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }

  private send(job: Job): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...job });
    });
  }

  private failAll(err: Error): void {
    for (const job of this.pending.values()) job.reject(err);
    this.pending.clear();
  }
}

/** `fn` given a `LoadWorker`, closed when `fn` settles. */
export async function withLoadWorker<T>(fn: (load: LoadWorker) => Promise<T>): Promise<T> {
  const load = new LoadWorker();
  try {
    return await fn(load);
  } finally {
    await load.close();
  }
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  port.on('message', ({ id, ...job }: Job & { id: number }) => {
    run(job).then(
      (result) => port.postMessage({ id, result } satisfies Answer),
      (err: unknown) => port.postMessage({ id, error: String(err) } satisfies Answer),
    );
  });
}
