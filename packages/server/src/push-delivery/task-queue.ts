type Task = () => Promise<void>;

/**
 * Background work with bounded concurrency and a bounded backlog. Tasks never reject into the
 * caller: failures go to `onError`. Delayed tasks (retries) wait without holding a slot.
 */
export class TaskQueue {
  private running = 0;
  private readonly waiting: Task[] = [];
  private readonly delayed = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private idleWaiters: Array<() => void> = [];
  private closed = false;

  private readonly concurrency: number;
  private readonly maxWaiting: number;
  private readonly onError: (err: unknown) => void;

  constructor(concurrency: number, maxWaiting: number, onError: (err: unknown) => void) {
    this.concurrency = concurrency;
    this.maxWaiting = maxWaiting;
    this.onError = onError;
  }

  /** Queue a task; false when the backlog is full or the queue is closed (the task is dropped). */
  push(task: Task): boolean {
    if (this.closed || this.waiting.length >= this.maxWaiting) return false;
    this.waiting.push(task);
    this.pump();
    return true;
  }

  /** Queue a task after `delayMs`; false when the queue is closed. */
  later(delayMs: number, task: Task): boolean {
    if (this.closed) return false;
    const timer = setTimeout(() => {
      this.delayed.delete(timer);
      if (!this.push(task)) this.onError(new Error('task dropped: queue full or closed'));
      this.settle();
    }, delayMs);
    this.delayed.add(timer);
    return true;
  }

  /** Tasks waiting, running or scheduled. */
  get pending(): number {
    return this.waiting.length + this.running + this.delayed.size;
  }

  /** Resolves once nothing waits, runs or is scheduled. */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stop accepting work, drop what waits or is scheduled, and let running tasks finish. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.delayed) clearTimeout(timer);
    this.delayed.clear();
    this.waiting.length = 0;
    await Promise.all(this.inFlight);
    this.settle();
  }

  private pump(): void {
    while (this.running < this.concurrency && this.waiting.length > 0) {
      const task = this.waiting.shift()!;
      this.running += 1;
      const run = task()
        .catch((err: unknown) => this.onError(err))
        .finally(() => {
          this.running -= 1;
          this.inFlight.delete(run);
          this.pump();
          this.settle();
        });
      this.inFlight.add(run);
    }
  }

  private settle(): void {
    if (this.pending > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
