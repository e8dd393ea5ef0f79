/** One caller's share of a batch: its items and how it learns the outcome. */
interface Waiting<I, R> {
  item: I;
  size: number;
  resolve(result: R): void;
  reject(error: unknown): void;
}

export interface GroupCommitOptions {
  /** Stop adding callers to a batch once it holds this many rows (one caller is never split). */
  maxRows: number;
  /** Batches in flight at once; more lets a database server overlap one commit with the next insert. */
  concurrency: number;
}

/**
 * Group commit: callers arriving while a batch is being written wait and share the next one, so
 * at low load a caller waits for no timer (its batch starts on the next turn of the event loop)
 * and under load batches grow by themselves. `commit` writes a batch in one transaction and
 * returns one outcome per item, in order: a value, or an Error for that caller alone.
 */
export class GroupCommitter<I, R> {
  private queue: Waiting<I, R>[] = [];
  private inFlight = 0;
  private scheduled = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly commit: (items: I[]) => Promise<(R | Error)[]>,
    private readonly options: GroupCommitOptions,
  ) {}

  /** Resolves once the batch holding `item` has committed. */
  submit(item: I, size: number): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, size, resolve, reject });
      this.schedule();
    });
  }

  /** Resolves when nothing is queued or being written (for shutdown). */
  async drain(): Promise<void> {
    if (this.queue.length === 0 && this.inFlight === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0 || this.inFlight >= this.options.concurrency) return;
    this.scheduled = true;
    // setImmediate, not a timer: every caller of this event-loop turn joins the batch, at no cost in latency.
    setImmediate(() => {
      this.scheduled = false;
      while (this.queue.length > 0 && this.inFlight < this.options.concurrency) this.start(this.take());
    });
  }

  private take(): Waiting<I, R>[] {
    let rows = 0;
    let count = 0;
    while (
      count < this.queue.length &&
      (count === 0 || rows + this.queue[count]!.size <= this.options.maxRows)
    ) {
      rows += this.queue[count]!.size;
      count++;
    }
    return this.queue.splice(0, count);
  }

  private start(batch: Waiting<I, R>[]): void {
    this.inFlight++;
    this.commit(batch.map((w) => w.item))
      .then(
        (outcomes) =>
          batch.forEach((w, i) => {
            const outcome = outcomes[i];
            if (outcome instanceof Error) w.reject(outcome);
            else if (outcome === undefined) w.reject(new Error('group commit returned no outcome'));
            else w.resolve(outcome);
          }),
        (err: unknown) => {
          for (const w of batch) w.reject(err);
        },
      )
      .finally(() => {
        this.inFlight--;
        if (this.queue.length > 0) this.schedule();
        else if (this.inFlight === 0) for (const done of this.idleWaiters.splice(0)) done();
      });
  }
}
