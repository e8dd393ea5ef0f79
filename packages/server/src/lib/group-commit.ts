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
  /** Rows that may wait for a batch; past this a caller is refused or waits for room (see `submit`). */
  maxQueuedRows: number;
  /** How long a caller that chose to wait for room waits before it is refused after all. */
  roomWaitMs: number;
}

/** What a caller does when the queue is full: be refused at once (HTTP: 429) or wait for room (MQTT: a later PUBACK). */
export type WhenFull = 'refuse' | 'wait';

/** The queue was full (and stayed full for `roomWaitMs` for a caller that waited): nothing was stored. */
export class QueueFull extends Error {
  readonly waited: boolean;

  constructor(waited: boolean) {
    super(waited ? 'ingest queue stayed full' : 'ingest queue full');
    this.waited = waited;
    this.name = 'QueueFull';
  }
}

/**
 * Group commit: callers arriving while a batch is being written wait and share the next one, so
 * at low load a caller waits for no timer (its batch starts on the next turn of the event loop)
 * and under load batches grow by themselves. `commit` writes a batch in one transaction and
 * returns one outcome per item, in order: a value, or an Error for that caller alone.
 */
export class GroupCommitter<I, R> {
  private queue: Waiting<I, R>[] = [];
  private queuedRows = 0;
  /** Callers waiting for room in the queue, oldest first, each with its give-up timer. */
  private waitingForRoom: { waiting: Waiting<I, R>; timer: NodeJS.Timeout }[] = [];
  private inFlight = 0;
  private scheduled = false;
  private idleWaiters: (() => void)[] = [];

  private readonly commit: (items: I[]) => Promise<(R | Error)[]>;
  private readonly options: GroupCommitOptions;

  constructor(commit: (items: I[]) => Promise<(R | Error)[]>, options: GroupCommitOptions) {
    this.commit = commit;
    this.options = options;
  }

  /** Rows waiting for a batch now (not those being written). */
  get depth(): number {
    return this.queuedRows;
  }

  /**
   * Resolves once the batch holding `item` has committed. When the queue holds `maxQueuedRows`
   * already, the caller is refused with QueueFull at once, or waits for room (in arrival order)
   * for up to `roomWaitMs` and is refused then: the queue never grows past its limit.
   */
  submit(item: I, size: number, whenFull: WhenFull = 'refuse'): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const waiting = { item, size, resolve, reject };
      if (this.waitingForRoom.length === 0 && this.hasRoom(size)) return this.enqueue(waiting);
      if (whenFull === 'refuse') return reject(new QueueFull(false));
      const entry = {
        waiting,
        timer: setTimeout(() => {
          this.waitingForRoom = this.waitingForRoom.filter((w) => w !== entry);
          reject(new QueueFull(true));
        }, this.options.roomWaitMs),
      };
      this.waitingForRoom.push(entry);
    });
  }

  private hasRoom(size: number): boolean {
    // An empty queue takes any caller, so one larger than the limit is not refused forever.
    return this.queuedRows === 0 || this.queuedRows + size <= this.options.maxQueuedRows;
  }

  private enqueue(waiting: Waiting<I, R>): void {
    this.queue.push(waiting);
    this.queuedRows += waiting.size;
    this.schedule();
  }

  /** Let in the callers waiting for room, oldest first, while it lasts. */
  private admitWaiting(): void {
    while (this.waitingForRoom.length > 0 && this.hasRoom(this.waitingForRoom[0]!.waiting.size)) {
      const { waiting, timer } = this.waitingForRoom.shift()!;
      clearTimeout(timer);
      this.enqueue(waiting);
    }
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
    this.queuedRows -= rows;
    const batch = this.queue.splice(0, count);
    this.admitWaiting();
    return batch;
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
