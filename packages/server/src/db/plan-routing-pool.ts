import pg from 'pg';
import { GENERIC_PLAN } from './server-pglite.ts';

const GENERIC_OPTION = '-c plan_cache_mode=force_generic_plan';

/**
 * `url` with GENERIC_OPTION added to its `options` (sent when a connection starts): a URL's own
 * settings come first, and they override a configured `options`, so the URL carries them all.
 * Edited as text: node-postgres takes URLs (`postgres://user@/db?host=/run/postgresql`) that
 * `new URL` refuses.
 */
export function withGenericPlans(url: string): string {
  const added = encodeURIComponent(GENERIC_OPTION);
  const own = /([?&]options=)([^&#]*)/;
  if (own.test(url)) return url.replace(own, (_, key: string, value: string) => `${key}${value}%20${added}`);
  const [base = '', fragment] = url.split('#', 2);
  return `${base}${base.includes('?') ? '&' : '?'}options=${added}${fragment === undefined ? '' : `#${fragment}`}`;
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
 */
export class PlanRoutingPool extends pg.Pool {
  private readonly generic: pg.Pool;

  /** `genericMax`: the marked statements' connections, besides `config.max`. */
  constructor(config: pg.PoolConfig, genericMax: number) {
    super(config);
    const generic = new pg.Pool({
      ...config,
      ...(config.connectionString ? { connectionString: withGenericPlans(config.connectionString) } : {}),
      max: genericMax,
    });
    for (const pool of [this, generic]) {
      // An idle client's error (server restart) must not crash the process; the next query reports it.
      pool.on('error', () => {});
      // Nor a checked-out one's (its backend terminated mid-transaction): the query under way, or
      // the next one, fails with it, and the client is not reused.
      pool.on('connect', (client) => client.on('error', () => {}));
    }
    this.generic = generic;
    const own = this.query.bind(this) as (...args: unknown[]) => unknown;
    const routed = generic.query.bind(generic) as (...args: unknown[]) => unknown;
    this.query = ((...args: unknown[]) => (marked(args[0]) ? routed : own)(...args)) as pg.Pool['query'];
  }

  override async end(): Promise<void> {
    await Promise.all([super.end(), this.generic.end()]);
  }
}
