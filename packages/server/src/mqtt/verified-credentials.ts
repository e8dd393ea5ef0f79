import { createHash, timingSafeEqual } from 'node:crypto';

/** Device ids kept; past it the one verified least recently is forgotten. */
const DEFAULT_MAX_ENTRIES = 100_000;

const digestOf = (apiAuthCode: string) => createHash('sha256').update(apiAuthCode, 'utf8').digest();

/**
 * Credentials that passed the database check on this node since it started: device id →
 * sha256 of its code (base64; never the code itself). It lets the devices behind an address that
 * is blocked for failing (a clinic gateway, a load balancer) keep connecting, while the failing
 * flood from it is refused without a database lookup. A match is not a login: the caller still
 * checks the database, so a disabled device or a regenerated code is still refused.
 */
export class VerifiedCredentials {
  private readonly digests = new Map<string, string>();

  private readonly maxEntries: number;

  constructor(maxEntries = DEFAULT_MAX_ENTRIES) {
    this.maxEntries = maxEntries;
  }

  /** True when this id last logged in with this code. */
  has(deviceId: string, apiAuthCode: string): boolean {
    const stored = this.digests.get(deviceId);
    if (stored === undefined) return false;
    return timingSafeEqual(Buffer.from(stored, 'base64'), digestOf(apiAuthCode));
  }

  /** The id logged in with this code (its entry becomes the most recent). */
  remember(deviceId: string, apiAuthCode: string): void {
    this.digests.delete(deviceId);
    this.digests.set(deviceId, digestOf(apiAuthCode).toString('base64'));
    if (this.digests.size > this.maxEntries) this.digests.delete(this.digests.keys().next().value!);
  }

  /** The id's code no longer passes (wrong since, or the device is disabled). */
  forget(deviceId: string): void {
    this.digests.delete(deviceId);
  }

  /** What is stored, for inspection: device id and base64 sha256 of its code. */
  entries(): IterableIterator<[string, string]> {
    return this.digests.entries();
  }
}
