import { EventEmitter } from 'node:events';
import type { AlertRecord, HealthRecord } from '@vitalwatch/shared';

/** Who must hear about a device's news: every user assigned to it. */
export interface Audience {
  deviceId: string;
  userIds: string[];
}

export interface DomainEvents {
  /** New health records, committed, newest `recordedAt` last; one event per device batch. */
  health: [audience: Audience, records: HealthRecord[]];
  /** New alerts, committed (`isRead` false for everyone). */
  alerts: [audience: Audience, alerts: AlertRecord[]];
  /**
   * Some or all of a user's sessions ended, committed: password changed or reset (access tokens
   * issued before that instant are refused) or user deleted. Real time re-checks that user's
   * sockets at once instead of at its next periodic revalidation.
   */
  sessionsEnded: [userId: string];
}

/**
 * In-process fan-out of committed facts to real time, push and mail. Listeners must not throw
 * and must not block: ingestion has already answered the device when they run.
 */
export class EventBus extends EventEmitter<DomainEvents> {}
