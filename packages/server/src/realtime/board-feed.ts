import { BOARD_COALESCE_MS, boardRoom, type HealthRecord } from '@vitalwatch/shared';
import type { Audience } from '../lib/events.ts';

/** Where a batch goes: the board rooms of these users (`io.to(rooms).emit`). */
export type SendBatch = (rooms: string[], records: HealthRecord[]) => void;

/** Most devices whose newest record waits for the next batch; past it the oldest entry is sent now. */
const MAX_PENDING = 50_000;

/**
 * Coalesces readings for boards: of each device only the newest record since the last batch is
 * kept, and every `BOARD_COALESCE_MS` each user gets one `boardUpdate` with their devices' records.
 * A board of 500 devices at 1 Hz gets one event a second, not 500. The audience is the one the
 * reading was published with, read at commit: someone who left a team gets nothing more.
 */
export class BoardFeed {
  private readonly send: SendBatch;
  private readonly intervalMs: number;
  private pending = new Map<string, { audience: Audience; record: HealthRecord }>();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(send: SendBatch, intervalMs = BOARD_COALESCE_MS) {
    this.send = send;
    this.intervalMs = intervalMs;
  }

  /** A device's readings, committed: its newest replaces whatever was waiting for it. */
  add(audience: Audience, records: readonly HealthRecord[]): void {
    let newest: HealthRecord | undefined;
    for (const r of records) if (!newest || r.createdAt >= newest.createdAt) newest = r;
    if (!newest) return;
    const waiting = this.pending.get(audience.deviceId);
    if (waiting && waiting.record.createdAt > newest.createdAt) return;
    this.pending.set(audience.deviceId, { audience, record: newest });
    if (this.pending.size > MAX_PENDING) this.flush();
    this.timer ??= setInterval(() => this.flush(), this.intervalMs).unref();
  }

  /** Sends what is waiting: one batch per user, with the newest record of each of their devices. */
  flush(): void {
    if (this.pending.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    const byUser = new Map<string, HealthRecord[]>();
    for (const { audience, record } of this.pending.values()) {
      for (const userId of audience.userIds) {
        const list = byUser.get(userId);
        if (list) list.push(record);
        else byUser.set(userId, [record]);
      }
    }
    this.pending = new Map();
    // Users with the same devices share one encoded message.
    const byBatch = new Map<string, { rooms: string[]; records: HealthRecord[] }>();
    for (const [userId, records] of byUser) {
      const key = records.map((r) => r._id).join(',');
      const batch = byBatch.get(key);
      if (batch) batch.rooms.push(boardRoom(userId));
      else byBatch.set(key, { rooms: [boardRoom(userId)], records });
    }
    for (const { rooms, records } of byBatch.values()) this.send(rooms, records);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }
}
