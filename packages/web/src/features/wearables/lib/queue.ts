import type { HealthReading } from '@vitalwatch/shared';
import { z } from 'zod';

/** A reading waiting to be sent, with the device it belongs to. */
export interface QueuedReading {
  seq?: number;
  deviceId: string;
  reading: HealthReading & { messageId: string; recordedAt: string };
}

const DB_NAME = 'vitalwatch-gateway';
const READINGS = 'readings';
const KEYS = 'keys';

const request = <T>(req: IDBRequest<T>): Promise<T> =>
  new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });

let opened: Promise<IDBDatabase> | undefined;
function database(): Promise<IDBDatabase> {
  opened ??= new Promise((resolve, reject) => {
    const open = indexedDB.open(DB_NAME, 1);
    open.onupgradeneeded = () => {
      const store = open.result.createObjectStore(READINGS, { keyPath: 'seq', autoIncrement: true });
      store.createIndex('device', 'deviceId');
      open.result.createObjectStore(KEYS);
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  return opened;
}

async function store(name: string, mode: IDBTransactionMode): Promise<IDBObjectStore> {
  return (await database()).transaction(name, mode).objectStore(name);
}

/**
 * The gateway's durable queue (IndexedDB): a reading is written here before anything else, and
 * leaves only once the server has answered 202 for it, so a closed tab, a lost network or a
 * crash loses nothing. Oldest first, per device.
 */
export const readingQueue = {
  async add(item: QueuedReading): Promise<void> {
    await request((await store(READINGS, 'readwrite')).add(item));
  },
  async oldest(deviceId: string, limit: number): Promise<QueuedReading[]> {
    const index = (await store(READINGS, 'readonly')).index('device');
    return request(index.getAll(IDBKeyRange.only(deviceId), limit)) as Promise<QueuedReading[]>;
  },
  async remove(seqs: number[]): Promise<void> {
    const readings = await store(READINGS, 'readwrite');
    await Promise.all(seqs.map((seq) => request(readings.delete(seq))));
  },
  async count(deviceId: string): Promise<number> {
    return request((await store(READINGS, 'readonly')).index('device').count(IDBKeyRange.only(deviceId)));
  },
};

/** This browser's gateway for a device: its id and key (issued once, kept until revoked). */
export interface OwnGateway {
  id: string;
  key: string;
}

const ownGateway = z.object({ id: z.string(), key: z.string() });

export const gatewayKeys = {
  async get(deviceId: string): Promise<OwnGateway | undefined> {
    const parsed = ownGateway.safeParse(await request((await store(KEYS, 'readonly')).get(deviceId)));
    return parsed.success ? parsed.data : undefined;
  },
  async set(deviceId: string, gateway: OwnGateway): Promise<void> {
    await request((await store(KEYS, 'readwrite')).put(gateway, deviceId));
  },
  async forget(deviceId: string): Promise<void> {
    await request((await store(KEYS, 'readwrite')).delete(deviceId));
  },
};
