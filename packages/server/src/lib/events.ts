import { EventEmitter } from 'node:events';
import type { AlertLifecycle, AlertRecord, HealthRecord } from '@vitalwatch/shared';

/** Who must hear about a device's news. */
export interface Audience {
  deviceId: string;
  /** Every user assigned to the device: their screens show it. */
  userIds: string[];
  /** Who is notified now (push, e-mail): its primary contacts, or more as an alert escalates. */
  contactIds: string[];
}

/** One step of an unacknowledged high-priority alert's escalation. */
export interface EscalationStep {
  alert: AlertRecord;
  /** 1 for the first repeat. */
  step: number;
  /** Backup contacts are among the audience's contacts from this step on. */
  includesBackup: boolean;
}

export interface DomainEvents {
  /** New health records, committed, newest `recordedAt` last; one event per device batch. */
  health: [audience: Audience, records: HealthRecord[]];
  /** New alerts, committed (`isRead` false for everyone). */
  alerts: [audience: Audience, alerts: AlertRecord[]];
  /** Alerts acknowledged or resolved, committed: everyone assigned sees the new state. */
  alertLifecycle: [audience: Audience, alerts: AlertLifecycle[]];
  /** An escalation step is due, committed once across all processes: notify again, louder. */
  escalation: [audience: Audience, step: EscalationStep];
  /**
   * Some or all of a user's sessions ended, committed: password changed or reset (access tokens
   * issued before that instant are refused), a logout (that session's access tokens are refused)
   * or user deleted. Real time re-checks that user's sockets at once instead of at its next
   * periodic revalidation.
   */
  sessionsEnded: [userId: string];
  /**
   * These users gained or lost a device (a care circle change), committed: their open screens
   * fetch their devices again at once.
   */
  accessChanged: [userIds: string[]];
}

/**
 * In-process fan-out of committed facts to real time, push and mail. Listeners must not throw
 * and must not block: ingestion has already answered the device when they run.
 */
export class EventBus extends EventEmitter<DomainEvents> {}
