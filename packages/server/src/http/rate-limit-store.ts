/** Most keys kept at once; the oldest window is forgotten first. */
const MAX_KEYS = 10_000;

type Result = { current: number; ttl: number };

/**
 * The in-process store for @fastify/rate-limit when there is no Redis: fixed windows per key.
 * Its built-in LocalStore hands every caller the same mutable counter, so callers that count in
 * one turn of the event loop (a device's parallel posts, resumed together by one shared credential
 * lookup) all read the final count and were all refused; here each caller gets its own count.
 */
export class FixedWindowStore {
  private readonly windows = new Map<string, { count: number; startedAt: number }>();

  incr(key: string, cb: (err: Error | null, result: Result) => void, timeWindow: number): void {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.startedAt + timeWindow <= now) {
      this.windows.delete(key);
      if (this.windows.size >= MAX_KEYS) {
        const oldest = this.windows.keys().next().value;
        if (oldest !== undefined) this.windows.delete(oldest);
      }
      window = { count: 0, startedAt: now };
      this.windows.set(key, window);
    }
    window.count++;
    cb(null, { current: window.count, ttl: window.startedAt + timeWindow - now });
  }

  /** Route-level limits get a store of their own. */
  child(): FixedWindowStore {
    return new FixedWindowStore();
  }
}
