import pg from 'pg';

/** What starts the name of a quick read's prepared statement (`quickRead`). */
const QUICK = 'quick:';

/**
 * The name of a prepared read that PostgreSQL answers from indexes in well under a millisecond
 * whatever the data's size, and that waits on no row lock (a plain `select`): the reads every
 * signed-in page makes. On PostgreSQL it runs pipelined (`PipelinedReads`); PGlite ignores names.
 */
export const quickRead = (name: string): string => `${QUICK}${name}`;

/**
 * Whether node-postgres query arguments are a quick read's: its config, and its values or none (as
 * drizzle calls `query(config, values)`), no callback.
 */
export const isQuickRead = (args: unknown[]): args is [pg.QueryConfig, unknown[]?] => {
  const [config, values] = args;
  return (
    args.length <= 2 &&
    (values === undefined || Array.isArray(values)) &&
    typeof config === 'object' &&
    config !== null &&
    'name' in config &&
    typeof config.name === 'string' &&
    config.name.startsWith(QUICK)
  );
};

/** Most queries under way on one pipelined connection; past it, the pool's connections take them. */
export const MAX_IN_FLIGHT = 16;
/** A lost pipelined connection is opened again at most this often. */
const REOPEN_MS = 1_000;

interface Lane {
  client: pg.Client;
  inFlight: number;
  ready: boolean;
}

/**
 * A few connections each carrying many quick reads at once (node-postgres's pipeline mode: each
 * query sent as it comes, with its own Sync, the answers read in order). Twenty requests on twenty
 * pooled connections woke twenty PostgreSQL backends one query at a time; pipelined, one backend
 * reads several queries a wake-up and the server reads several answers a read. Measured on the
 * profile's statement from 20 callers (2 cores): 11,400 → 21,400 a second, PostgreSQL's CPU a
 * query 81 → 32 µs, the client's 60 → 45.
 *
 * A query goes to the connected lane with the fewest under way, or, when none is connected or all
 * hold `MAX_IN_FLIGHT`, nowhere (`query` answers undefined): the caller runs it on its pool. Each
 * query is its own implicit transaction: one failing fails alone. A lost connection fails the
 * queries under way on it (as a pooled one would) and is opened again, at most every `REOPEN_MS`,
 * when a query next comes; node-postgres's `query_timeout` closes a connection that stops
 * answering.
 */
export class PipelinedReads {
  private readonly config: pg.ClientConfig;
  private readonly lanes: (Lane | undefined)[];
  private readonly openedAt: number[];
  private ended = false;

  constructor(config: pg.ClientConfig, size: number) {
    this.config = config;
    this.lanes = Array.from({ length: size }, () => undefined);
    this.openedAt = Array.from({ length: size }, () => Number.NEGATIVE_INFINITY);
  }

  /** `config` under way on a pipelined connection, or undefined when none may take it now. */
  query(config: pg.QueryConfig, values?: unknown[]): Promise<pg.QueryResult> | undefined {
    const lane = this.pick();
    if (!lane) return undefined;
    lane.inFlight++;
    const done = () => {
      lane.inFlight--;
    };
    const answer = lane.client.query(config, values);
    answer.then(done, done);
    return answer;
  }

  /** The lanes connected now. */
  get connected(): number {
    return this.lanes.filter((lane) => lane?.ready).length;
  }

  async end(): Promise<void> {
    this.ended = true;
    await Promise.all(this.lanes.map((lane) => lane?.client.end().catch(() => {})));
  }

  private pick(): Lane | undefined {
    let best: Lane | undefined;
    for (let i = 0; i < this.lanes.length; i++) {
      const lane = this.lanes[i] ?? this.open(i);
      if (lane?.ready && lane.inFlight < MAX_IN_FLIGHT && (!best || lane.inFlight < best.inFlight))
        best = lane;
    }
    return best;
  }

  private open(i: number): Lane | undefined {
    const now = performance.now();
    if (this.ended || now - this.openedAt[i]! < REOPEN_MS) return undefined;
    this.openedAt[i] = now;
    const lane: Lane = {
      client: new pg.Client({ ...this.config, pipeline: true }),
      inFlight: 0,
      ready: false,
    };
    this.lanes[i] = lane;
    const lost = () => {
      lane.ready = false;
      if (this.lanes[i] === lane) this.lanes[i] = undefined;
    };
    // A lost connection must not crash the process: its queries under way fail with the loss.
    lane.client.on('error', lost);
    lane.client.on('end', lost);
    lane.client.connect().then(() => {
      if (this.ended) lane.client.end().catch(() => {});
      else lane.ready = this.lanes[i] === lane;
    }, lost);
    return undefined;
  }
}
