import { API_BASE } from '@/lib/api-send.ts';
import { readingQueue } from './queue.ts';

/** Most readings in one POST (the ingestion contract takes up to 500). */
const BATCH = 200;
/** Readings that arrive together go together: the sender waits this long after the first. */
const GATHER_MS = 1000;
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

export type SenderState = 'idle' | 'sending' | 'waiting' | 'refused' | 'revoked';

export interface SenderStatus {
  state: SenderState;
  queued: number;
  lastSentAt: string | null;
  /** Readings the server refused as malformed (400): resending them can never succeed. */
  discarded: number;
}

/**
 * Sends a device's queued readings over the device ingestion (`POST /ingest/health`) with this
 * browser's gateway key, oldest first, in batches. A reading leaves the queue only after 202.
 * No network, a 5xx or a 429: the batch waits (1 s, doubling to 30 s, or at once when the browser
 * says it is online again) and goes again with the same messageIds, so the server stores it once.
 * 401: the key was revoked; the sender stops and says so.
 */
export class ReadingSender {
  private status: SenderStatus = { state: 'idle', queued: 0, lastSentAt: null, discarded: 0 };
  private stopped = false;
  private wakeUp: (() => void) | null = null;
  private readonly onOnline = () => this.kick();
  private readonly deviceId: string;
  private readonly key: string;
  private readonly onStatus: (status: SenderStatus) => void;

  constructor(deviceId: string, key: string, onStatus: (status: SenderStatus) => void) {
    this.deviceId = deviceId;
    this.key = key;
    this.onStatus = onStatus;
  }

  start(): void {
    window.addEventListener('online', this.onOnline);
    void this.run();
  }

  stop(): void {
    this.stopped = true;
    window.removeEventListener('online', this.onOnline);
    this.kick();
  }

  /** Something was queued (or the network came back): send without waiting out a backoff. */
  kick(): void {
    this.wakeUp?.();
  }

  /** The make and model read from the wearable, stored on the device. */
  async sendInfo(info: { make?: string; model?: string }): Promise<void> {
    await fetch(`${API_BASE}/ingest/device-info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': this.key },
      body: JSON.stringify(info),
    }).catch(() => undefined);
  }

  private update(change: Partial<SenderStatus>): void {
    this.status = { ...this.status, ...change };
    this.onStatus(this.status);
  }

  private sleep(ms: number | null): Promise<void> {
    return new Promise((resolve) => {
      const timer = ms === null ? undefined : setTimeout(() => this.wakeUp?.(), ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
    });
  }

  private async run(): Promise<void> {
    let retryMs = FIRST_RETRY_MS;
    while (!this.stopped) {
      const queued = await readingQueue.count(this.deviceId);
      this.update({ queued });
      if (queued === 0) {
        if (this.status.state === 'sending') this.update({ state: 'idle' });
        await this.sleep(null);
        if (!this.stopped) await this.sleep(GATHER_MS);
        continue;
      }
      const batch = await readingQueue.oldest(this.deviceId, BATCH);
      this.update({ state: 'sending' });
      const answer = await fetch(`${API_BASE}/ingest/health`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': this.key },
        body: JSON.stringify(batch.map((item) => item.reading)),
      }).catch(() => null);
      const seqs = batch.flatMap((item) => (item.seq === undefined ? [] : [item.seq]));
      if (answer?.status === 202) {
        await readingQueue.remove(seqs);
        this.update({ lastSentAt: new Date().toISOString() });
        retryMs = FIRST_RETRY_MS;
      } else if (answer?.status === 400) {
        await readingQueue.remove(seqs);
        this.update({ discarded: this.status.discarded + seqs.length });
      } else if (answer?.status === 401) {
        this.update({ state: 'revoked' });
        return;
      } else {
        // No network, server down or busy, or the device disabled (403): wait, then the same batch again.
        this.update({ state: answer?.status === 403 ? 'refused' : 'waiting' });
        const retryAfter = Number(answer?.headers.get('retry-after')) * 1000;
        await this.sleep(retryAfter > 0 ? Math.max(retryAfter, retryMs) : retryMs);
        retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
      }
    }
  }
}
