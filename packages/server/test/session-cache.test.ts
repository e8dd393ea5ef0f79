import { describe, expect, it } from 'vitest';
import { SessionCache } from '../src/auth/session-cache.ts';

/** A lookup that counts its calls and answers what `state` holds now; a clock the test moves. */
const setup = (options: { maxEntries?: number } = {}) => {
  let t = 1_700_000_000_000;
  const state = { role: 'user' };
  const calls: string[] = [];
  const cache = new SessionCache(
    async (userId: string, sessionId: string) => {
      calls.push(`${userId}/${sessionId}`);
      return { userId, role: state.role };
    },
    { ttlMs: 1000, now: () => t, ...options },
  );
  return { cache, state, calls, advance: (ms: number) => (t += ms) };
};

describe('session cache', () => {
  it('answers a session from one lookup until the time to live has passed, then looks again', async () => {
    const { cache, state, calls, advance } = setup();
    expect(await cache.get('u1', 's1')).toEqual({ userId: 'u1', role: 'user' });
    state.role = 'admin';
    advance(999);
    expect((await cache.get('u1', 's1')).role).toBe('user');
    expect(calls).toEqual(['u1/s1']);
    advance(1);
    expect((await cache.get('u1', 's1')).role).toBe('admin');
    expect(calls).toEqual(['u1/s1', 'u1/s1']);
  });

  it('forgets every session of a user at once, and only that user', async () => {
    const { cache, state, calls } = setup();
    await Promise.all([cache.get('u1', 's1'), cache.get('u1', 's2'), cache.get('u2', 's3')]);
    state.role = 'admin';
    cache.forget('u1');
    expect((await cache.get('u1', 's1')).role).toBe('admin');
    expect((await cache.get('u1', 's2')).role).toBe('admin');
    expect((await cache.get('u2', 's3')).role).toBe('user');
    expect(calls).toEqual(['u1/s1', 'u1/s2', 'u2/s3', 'u1/s1', 'u1/s2']);
  });

  it('does not keep a lookup that began before a forget (it may have read the old state)', async () => {
    const { cache, calls } = setup();
    const inFlight = cache.get('u1', 's1');
    cache.forget('u2');
    await inFlight;
    await cache.get('u1', 's1');
    expect(calls).toEqual(['u1/s1', 'u1/s1']);
  });

  it('keeps at most maxEntries, dropping the oldest', async () => {
    const { cache, calls } = setup({ maxEntries: 2 });
    await cache.get('u1', 's1');
    await cache.get('u2', 's2');
    await cache.get('u3', 's3');
    await cache.get('u3', 's3');
    await cache.get('u2', 's2');
    await cache.get('u1', 's1');
    expect(calls).toEqual(['u1/s1', 'u2/s2', 'u3/s3', 'u1/s1']);
  });

  it('does not keep a failed lookup', async () => {
    let fail = true;
    const cache = new SessionCache(async () => {
      if (fail) throw new Error('database down');
      return 'ok';
    });
    await expect(cache.get('u1', 's1')).rejects.toThrow('database down');
    fail = false;
    expect(await cache.get('u1', 's1')).toBe('ok');
  });
});
