/**
 * How long this process trusts a session lookup it made (the user's role, `tokensValidAfter`, a
 * logout of the session). This process forgets a user's entries at once when it ends their
 * sessions or changes their role; another server process learns of it from the database within
 * this time, so a logout, password reset, deletion or demotion made there is honoured here at most
 * this long later.
 */
export const SESSION_CACHE_MS = 1000;

/** Entries kept at most; the oldest goes first. */
export const SESSION_CACHE_SIZE = 10_000;

interface Entry<T> {
  value: Promise<T>;
  expiresAt: number;
}

/**
 * The session lookup of each (user, session), shared by the requests of SESSION_CACHE_MS: an
 * authenticated request then costs no database round trip. A lookup that began before `forget`
 * is never kept, so a stale answer read while the change committed cannot outlive the change.
 */
export class SessionCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  /** Bumped by each `forget`: a lookup begun before it is not kept. */
  private epoch = 0;
  private readonly lookup: (userId: string, sessionId: string) => Promise<T>;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    lookup: (userId: string, sessionId: string) => Promise<T>,
    { ttlMs = SESSION_CACHE_MS, maxEntries = SESSION_CACHE_SIZE, now = Date.now } = {},
  ) {
    this.lookup = lookup;
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
    this.now = now;
  }

  get(userId: string, sessionId: string): Promise<T> {
    const key = `${userId} ${sessionId}`;
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > this.now()) return hit.value;
    if (hit) this.entries.delete(key);
    const epoch = this.epoch;
    const value = this.lookup(userId, sessionId);
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    value.then(
      () => {
        if (this.epoch !== epoch) this.drop(key, value);
      },
      () => this.drop(key, value),
    );
    return value;
  }

  /** The user's sessions or role changed: their next request reads the database. */
  forget(userId: string): void {
    this.epoch += 1;
    const prefix = `${userId} `;
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  private drop(key: string, value: Promise<T>): void {
    if (this.entries.get(key)?.value === value) this.entries.delete(key);
  }
}
