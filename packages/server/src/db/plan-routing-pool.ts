import pg from 'pg';
import { parse } from 'pg-connection-string';
import { isQuickRead, PipelinedReads } from './pipelined-reads.ts';
import { GENERIC_PLAN } from './server-pglite.ts';

const GENERIC_OPTION = '-c plan_cache_mode=force_generic_plan';

/**
 * The marked statements' pool's settings: `config`'s, with GENERIC_OPTION after the `options` its
 * connections would have started with (node-postgres takes them from the URL, else the configured
 * ones, else PGOPTIONS). The URL is parsed as node-postgres parses it, whose settings win over the
 * configured ones as they do there.
 */
export function genericPlanConfig(
  config: pg.PoolConfig,
  env: NodeJS.ProcessEnv = process.env,
): pg.PoolConfig {
  const { connectionString, ...configured } = config;
  const settings = { ...configured, ...(connectionString ? parse(connectionString) : {}) };
  const own = settings.options ?? env.PGOPTIONS;
  return { ...settings, options: own ? `${own} ${GENERIC_OPTION}` : GENERIC_OPTION } as pg.PoolConfig;
}

const marked = (config: unknown): boolean =>
  typeof config === 'object' &&
  config !== null &&
  'text' in config &&
  typeof config.text === 'string' &&
  config.text.startsWith(GENERIC_PLAN);

/**
 * The server's PostgreSQL pool. A statement marked GENERIC_PLAN, run outside a transaction, goes to
 * connections of its own set to `plan_cache_mode = force_generic_plan`, as PGlite runs it: a
 * history's summary over the partitioned readings, whose generic plan PostgreSQL's own choice
 * finds dearer (every partition is in it) and so plans anew with the values on every call. Planning
 * was most of its cost: 1,130–1,250 µs of PostgreSQL's CPU a call planned anew, 410–430 µs with its
 * generic plan (partitions left out by the range are pruned when it starts), measured with 62
 * weekly partitions of readings. A marked statement in a transaction runs on the transaction's
 * connection, planned as PostgreSQL chooses; the answers are the same either way.
 *
 * A quick read (`quickRead`) goes pipelined to connections of their own (`PipelinedReads`), or to
 * this pool when they cannot take it now.
 */
export class PlanRoutingPool extends pg.Pool {
  private readonly generic: pg.Pool;
  readonly pipelined: PipelinedReads;

  /** `genericMax`: the marked statements' connections, `lanes` the pipelined ones, besides `config.max`. */
  constructor(config: pg.PoolConfig, genericMax: number, lanes: number) {
    super(config);
    const generic = new pg.Pool({ ...genericPlanConfig(config), max: genericMax });
    for (const pool of [this, generic]) {
      // An idle client's error (server restart) must not crash the process; the next query reports it.
      pool.on('error', () => {});
      // Nor a checked-out one's (its backend terminated mid-transaction): the query under way, or
      // the next one, fails with it, and the client is not reused.
      pool.on('connect', (client) => client.on('error', () => {}));
    }
    this.generic = generic;
    const own = this.query.bind(this) as (...args: unknown[]) => unknown;
    const pipelined = new PipelinedReads(
      config,
      lanes,
      own as ConstructorParameters<typeof PipelinedReads>[2],
    );
    this.pipelined = pipelined;
    const routed = generic.query.bind(generic) as (...args: unknown[]) => unknown;
    this.query = ((...args: unknown[]) =>
      isQuickRead(args)
        ? pipelined.query(...args)
        : (marked(args[0]) ? routed : own)(...args)) as pg.Pool['query'];
  }

  override async end(): Promise<void> {
    await Promise.all([super.end(), this.generic.end(), this.pipelined.end()]);
  }
}
