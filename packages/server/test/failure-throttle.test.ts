import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type FailureThrottle,
  type FailureThrottleOptions,
  memoryFailureThrottle,
  redisFailureThrottle,
  sharedFailureThrottle,
} from '../src/auth/failure-throttle.ts';
import { serviceUrl } from './realtime-helpers.ts';

const redisUrl = serviceUrl('TEST_REDIS_URL');
const redis = redisUrl ? new Redis(redisUrl, { maxRetriesPerRequest: 2 }) : undefined;
afterAll(async () => {
  await redis?.quit();
});

type Make = (options: FailureThrottleOptions) => FailureThrottle;
const kinds: [string, Make][] = [['memory', memoryFailureThrottle]];
// A fresh name per throttle: nothing is shared with other test runs on the same Redis.
if (redis) kinds.push(['redis', (options) => redisFailureThrottle(redis, `test-${randomUUID()}`, options)]);

describe.each(kinds)('failure throttle (%s)', (_kind, make) => {
  /** A clock the test moves; no waiting for windows. */
  const clock = () => {
    let t = 1_700_000_000_000;
    return { now: () => t, advance: (ms: number) => (t += ms) };
  };

  it('blocks a key after `limit` failures inside the window, until the oldest leaves it', async () => {
    const c = clock();
    const throttle = make({ limit: 3, windowMs: 60_000, now: c.now });
    expect(await throttle.fail('a')).toBe(0);
    c.advance(10_000);
    expect(await throttle.fail('a')).toBe(0);
    c.advance(10_000);
    expect(await throttle.blockedFor('a')).toBe(0);
    // The third failure blocks: the first one leaves the window 40 s from now.
    expect(await throttle.fail('a')).toBe(40);
    expect(await throttle.blockedFor('a')).toBe(40);
    expect(await throttle.blockedFor('b')).toBe(0);
    c.advance(39_500);
    expect(await throttle.blockedFor('a')).toBe(1);
    c.advance(500);
    expect(await throttle.blockedFor('a')).toBe(0);
    // Two failures are still inside the window: one more blocks again.
    expect(await throttle.fail('a')).toBeGreaterThan(0);
  });

  it('forgets a key on reset, and keys count apart', async () => {
    const c = clock();
    const throttle = make({ limit: 2, windowMs: 60_000, now: c.now });
    await throttle.fail('a');
    await throttle.fail('b');
    expect(await throttle.fail('a')).toBe(60);
    expect(await throttle.blockedFor('b')).toBe(0);
    await throttle.reset('a');
    expect(await throttle.blockedFor('a')).toBe(0);
    expect(await throttle.fail('a')).toBe(0);
  });

  it('many failures keep the block tied to the newest `limit` of them', async () => {
    const c = clock();
    const throttle = make({ limit: 3, windowMs: 60_000, now: c.now });
    for (let i = 0; i < 50; i++) {
      await throttle.fail('flood');
      c.advance(1000);
    }
    // Newest three at -3 s, -2 s, -1 s: blocked until the -3 s one is 60 s old.
    expect(await throttle.blockedFor('flood')).toBe(57);
  });
});

describe.skipIf(!redis)('failure throttle in Redis', () => {
  it('keeps at most `limit` entries per key, expiring with the window', async () => {
    const name = `test-${randomUUID()}`;
    const throttle = redisFailureThrottle(redis!, name, { limit: 4, windowMs: 60_000 });
    for (let i = 0; i < 20; i++) await throttle.fail('k');
    expect(await redis!.zcard(`vw:${name}:k`)).toBe(4);
    const ttl = await redis!.pttl(`vw:${name}:k`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    await throttle.reset('k');
    expect(await redis!.exists(`vw:${name}:k`)).toBe(0);
  });

  it('is shared by every process using the same Redis', async () => {
    const name = `test-${randomUUID()}`;
    const other = new Redis(redisUrl!, { maxRetriesPerRequest: 2 });
    try {
      const a = redisFailureThrottle(redis!, name, { limit: 2, windowMs: 60_000 });
      const b = redisFailureThrottle(other, name, { limit: 2, windowMs: 60_000 });
      await a.fail('shared');
      expect(await b.fail('shared')).toBeGreaterThan(0);
      expect(await a.blockedFor('shared')).toBeGreaterThan(0);
    } finally {
      await other.quit();
    }
  });
});

describe('shared failure throttle', () => {
  it('counts in this process while Redis is unreachable, and says so in the log', async () => {
    const lines: string[] = [];
    const log = Fastify({
      logger: { level: 'warn', stream: { write: (line: string) => lines.push(line) } },
    }).log;
    // Nothing listens on port 1: every command fails at once.
    const down = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    down.on('error', () => {});
    try {
      const throttle = sharedFailureThrottle(down, 'test-down', { limit: 2, windowMs: 60_000 }, log);
      expect(await throttle.fail('k')).toBe(0);
      expect(await throttle.blockedFor('k')).toBe(0);
      expect(await throttle.fail('k')).toBeGreaterThan(0);
      expect(await throttle.blockedFor('k')).toBeGreaterThan(0);
      expect(await throttle.blockedFor('other')).toBe(0);
      await throttle.reset('k');
      expect(await throttle.blockedFor('k')).toBe(0);
      const warnings = lines.filter((l) => l.includes('shared failure counter unavailable'));
      // Reported once a minute, not per attempt.
      expect(warnings).toHaveLength(1);
    } finally {
      down.disconnect();
    }
  });

  it('counts in this process without Redis', async () => {
    const log = Fastify({ logger: false }).log;
    const throttle = sharedFailureThrottle(undefined, 'test-memory', { limit: 2, windowMs: 60_000 }, log);
    expect(await throttle.fail('k')).toBe(0);
    expect(await throttle.fail('k')).toBeGreaterThan(0);
    expect(await throttle.blockedFor('k')).toBeGreaterThan(0);
  });
});
