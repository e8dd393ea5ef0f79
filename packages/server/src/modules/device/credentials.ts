import type { Db } from '../../db/index.ts';
import { isUuid } from '../../lib/ids.ts';
import { type DeviceRow, findDevicesByApiAuthCodesOrIds } from './repository.ts';

/** How long a lookup is trusted: validity changes and new API codes reach every node within it. */
const TTL_MS = 1000;
const CACHE_MAX = 10_000;
/**
 * API codes are 43 base64url characters. Anything else is no key and costs no database lookup
 * (a NUL, for one, would fail the query instead of matching nothing).
 */
const API_KEY_SHAPE = /^[A-Za-z0-9_-]{1,128}$/;

/** A lookup waiting for the next query. */
interface Queued {
  kind: 'key' | 'id';
  value: string;
  resolve(device: DeviceRow | undefined): void;
  reject(err: unknown): void;
}

/**
 * The one cache of devices as ingestion checks them, by API code (HTTP `X-Api-Key`, the embedded
 * broker's password) and by id (the external broker's topics). An entry lives at most a second, and
 * the device module forgets a device at once when an admin changes it on this node. One query per
 * key at a time: a device with several publishes in flight when its entry expires would otherwise
 * look itself up once for each (measured: 3.8 lookups per device a second). And one query for all
 * the keys asked for in one turn of the event loop: every device of a fleet sending once a second
 * needs its entry again every second, and one query each cost the MQTT benchmark (200 devices,
 * 200 lookups a second) about 3 µs of the server's CPU per reading.
 */
export class DeviceCredentials {
  private readonly entries = new Map<string, { device: DeviceRow | undefined; at: number }>();
  private readonly pending = new Map<string, Promise<DeviceRow | undefined>>();
  private readonly queued: Queued[] = [];
  /** Moves on every admin change of a device, so a lookup begun before it is not cached. */
  private generation = 0;

  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  /** The device with this API code, if any. */
  byApiKey(apiKey: string): Promise<DeviceRow | undefined> {
    if (!API_KEY_SHAPE.test(apiKey)) return Promise.resolve(undefined);
    return this.cached(`key:${apiKey}`, () => this.load('key', apiKey));
  }

  /** The device with this id, if any. */
  byId(deviceId: string): Promise<DeviceRow | undefined> {
    if (!isUuid(deviceId)) return Promise.resolve(undefined);
    return this.cached(`id:${deviceId}`, () => this.load('id', deviceId));
  }

  /** Drop what is cached of a device (its validity or codes changed, or it was deleted). */
  forget(deviceId: string): void {
    this.generation++;
    this.pending.clear();
    for (const [key, entry] of this.entries) {
      if (entry.device?.id === deviceId || key === `id:${deviceId}`) this.entries.delete(key);
    }
  }

  private cached(key: string, query: () => Promise<DeviceRow | undefined>): Promise<DeviceRow | undefined> {
    const now = Date.now();
    const entry = this.entries.get(key);
    if (entry && now - entry.at < TTL_MS) return Promise.resolve(entry.device);
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight;
    const generation = this.generation;
    const lookup = query()
      .then((device) => {
        // An admin change while the query ran: do not keep what it read before the change.
        if (generation === this.generation) this.remember(key, device, now);
        return device;
      })
      .finally(() => {
        if (this.pending.get(key) === lookup) this.pending.delete(key);
      });
    this.pending.set(key, lookup);
    return lookup;
  }

  /** Queue a lookup for the query that this turn's lookups share. */
  private load(kind: Queued['kind'], value: string): Promise<DeviceRow | undefined> {
    return new Promise((resolve, reject) => {
      // setImmediate: every lookup of this turn (all the sockets read in it) joins the query.
      if (this.queued.length === 0) setImmediate(() => void this.flush());
      this.queued.push({ kind, value, resolve, reject });
    });
  }

  private async flush(): Promise<void> {
    const queued = this.queued.splice(0);
    const values = (kind: Queued['kind']) => [
      ...new Set(queued.filter((q) => q.kind === kind).map((q) => q.value)),
    ];
    try {
      const found = await findDevicesByApiAuthCodesOrIds(this.db, values('key'), values('id'));
      const byKey = new Map(found.map((d) => [d.apiAuthCode, d]));
      const byId = new Map(found.map((d) => [d.id, d]));
      for (const q of queued) q.resolve((q.kind === 'key' ? byKey : byId).get(q.value));
    } catch (err) {
      for (const q of queued) q.reject(err);
    }
  }

  private remember(key: string, device: DeviceRow | undefined, at: number): void {
    this.entries.delete(key);
    // Only what exists is kept: a device created a moment ago is found at once.
    if (!device) return;
    if (this.entries.size >= CACHE_MAX) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { device, at });
  }
}
