import type { Redis } from 'ioredis';

/** Counts failed logins per account; after `limit` failures inside `windowMs` the account waits. */
export interface LoginThrottle {
  /** Seconds until the account may try again; 0 when it may try now. */
  blockedFor(key: string): Promise<number>;
  fail(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

export function memoryLoginThrottle(limit: number, windowMs: number): LoginThrottle {
  const failures = new Map<string, number[]>();
  const live = (key: string, now: number) => (failures.get(key) ?? []).filter((t) => now - t < windowMs);
  return {
    async blockedFor(key) {
      const now = Date.now();
      const times = live(key, now);
      if (times.length < limit) return 0;
      return Math.ceil((times[times.length - limit]! + windowMs - now) / 1000);
    },
    async fail(key) {
      const now = Date.now();
      const times = live(key, now);
      times.push(now);
      failures.set(key, times.slice(-limit));
      if (failures.size > 100_000) failures.delete(failures.keys().next().value!);
    },
    async reset(key) {
      failures.delete(key);
    },
  };
}

/** Same rule shared by every server process through a Redis sorted set per account. */
export function redisLoginThrottle(redis: Redis, limit: number, windowMs: number): LoginThrottle {
  const k = (key: string) => `vw:login-fail:${key}`;
  return {
    async blockedFor(key) {
      const now = Date.now();
      await redis.zremrangebyscore(k(key), '0', String(now - windowMs));
      const times = await redis.zrange(k(key), '0', '-1', 'WITHSCORES');
      const scores = times.filter((_, i) => i % 2 === 1).map(Number);
      if (scores.length < limit) return 0;
      return Math.ceil((scores[scores.length - limit]! + windowMs - now) / 1000);
    },
    async fail(key) {
      const now = Date.now();
      await redis.multi().zadd(k(key), now, `${now}:${Math.random()}`).pexpire(k(key), windowMs).exec();
    },
    async reset(key) {
      await redis.del(k(key));
    },
  };
}
