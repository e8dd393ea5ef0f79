import type { Redis } from 'ioredis';
import { type FailureThrottle, memoryFailureThrottle, redisFailureThrottle } from './failure-throttle.ts';

/** Counts failed logins per account; after `limit` failures inside `windowMs` the account waits. */
export type LoginThrottle = FailureThrottle;

export function memoryLoginThrottle(limit: number, windowMs: number): LoginThrottle {
  return memoryFailureThrottle({ limit, windowMs });
}

/** Same rule shared by every server process through a Redis sorted set per account. */
export function redisLoginThrottle(redis: Redis, limit: number, windowMs: number): LoginThrottle {
  return redisFailureThrottle(redis, 'login-fail', { limit, windowMs });
}
