import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/**
 * Counts failures per key (an account, a device id, an address). After `limit` failures inside
 * `windowMs` the key waits until the oldest of those failures leaves the window. Nothing is
 * counted for successes: a caller that never fails never waits.
 */
export interface FailureThrottle {
  /** Seconds until the key may try again; 0 when it may try now. */
  blockedFor(key: string): Promise<number>;
  /** Records a failure; resolves to the seconds the key is blocked for now (0: not blocked). */
  fail(key: string): Promise<number>;
  /** Forgets the key's failures (after a success). */
  reset(key: string): Promise<void>;
}

export interface FailureThrottleOptions {
  limit: number;
  windowMs: number;
  /** Milliseconds since the epoch; tests move their own clock instead of sleeping. */
  now?: () => number;
}

/** Keys kept in memory; past it the key that failed least recently is forgotten. */
const MEMORY_MAX_KEYS = 100_000;

/**
 * Seconds until `counted` (the `limit`-th newest failure inside the window, if there are that
 * many) leaves the window; 0 when there are fewer failures.
 */
function secondsUntil(counted: number | undefined, windowMs: number, now: number): number {
  if (counted === undefined) return 0;
  return Math.max(1, Math.ceil((counted + windowMs - now) / 1000));
}

/** One process's count; enough when a single server process runs. */
export function memoryFailureThrottle({
  limit,
  windowMs,
  now = Date.now,
}: FailureThrottleOptions): FailureThrottle {
  const failures = new Map<string, number[]>();
  const live = (key: string, at: number) => (failures.get(key) ?? []).filter((t) => at - t < windowMs);
  return {
    async blockedFor(key) {
      const at = now();
      const times = live(key, at);
      return secondsUntil(times[times.length - limit], windowMs, at);
    },
    async fail(key) {
      const at = now();
      const times = [...live(key, at), at].slice(-limit);
      // Re-inserted, so the map's first key is the one that failed least recently.
      failures.delete(key);
      failures.set(key, times);
      if (failures.size > MEMORY_MAX_KEYS) failures.delete(failures.keys().next().value!);
      return secondsUntil(times[times.length - limit], windowMs, at);
    },
    async reset(key) {
      failures.delete(key);
    },
  };
}

/**
 * The same rule shared by every server process: a Redis sorted set per key (`vw:<name>:<key>`,
 * scores = failure times), trimmed to the newest `limit` entries and expiring with the window.
 */
export function redisFailureThrottle(
  redis: Redis,
  name: string,
  { limit, windowMs, now = Date.now }: FailureThrottleOptions,
): FailureThrottle {
  const k = (key: string) => `vw:${name}:${key}`;
  /** The score ZRANGE -limit -limit WITHSCORES found (the `limit`-th newest), if any. */
  const countedScore = (replies: [Error | null, unknown][] | null, index: number): number | undefined => {
    const [err, reply] = replies?.[index] ?? [new Error('redis transaction discarded'), null];
    if (err) throw err;
    return Array.isArray(reply) && typeof reply[1] === 'string' ? Number(reply[1]) : undefined;
  };
  return {
    async blockedFor(key) {
      const at = now();
      const replies = await redis
        .multi()
        .zremrangebyscore(k(key), '-inf', String(at - windowMs))
        .zrange(k(key), -limit, String(-limit), 'WITHSCORES')
        .exec();
      return secondsUntil(countedScore(replies, 1), windowMs, at);
    },
    async fail(key) {
      const at = now();
      const replies = await redis
        .multi()
        .zadd(k(key), at, `${at}:${randomUUID()}`)
        .zremrangebyscore(k(key), '-inf', String(at - windowMs))
        .zremrangebyrank(k(key), 0, -(limit + 1))
        .zrange(k(key), -limit, String(-limit), 'WITHSCORES')
        .pexpire(k(key), windowMs)
        .exec();
      return secondsUntil(countedScore(replies, 3), windowMs, at);
    },
    async reset(key) {
      await redis.del(k(key));
    },
  };
}

/** How often a failing counter store is reported. */
const ERROR_LOG_INTERVAL_MS = 60_000;

/**
 * Counted in Redis when the app has one (all nodes together), else in this process. While Redis
 * fails, this process counts alone (logged once a minute): an outage of the counter must neither
 * lock every device and user out nor turn the limit off.
 */
export function sharedFailureThrottle(
  redis: Redis | undefined,
  name: string,
  options: FailureThrottleOptions,
  log: FastifyBaseLogger,
): FailureThrottle {
  const local = memoryFailureThrottle(options);
  if (!redis) return local;
  const shared = redisFailureThrottle(redis, name, options);
  let loggedAt = Number.NEGATIVE_INFINITY;
  const orLocal = async <T>(attempt: Promise<T>, fallback: () => Promise<T>): Promise<T> => {
    try {
      return await attempt;
    } catch (err) {
      if (Date.now() - loggedAt >= ERROR_LOG_INTERVAL_MS) {
        loggedAt = Date.now();
        log.warn({ err, throttle: name }, 'shared failure counter unavailable; counting in this process');
      }
      return fallback();
    }
  };
  return {
    blockedFor: (key) => orLocal(shared.blockedFor(key), () => local.blockedFor(key)),
    fail: (key) => orLocal(shared.fail(key), () => local.fail(key)),
    reset: async (key) => {
      await local.reset(key);
      await orLocal(shared.reset(key), async () => {});
    },
  };
}
