import { CIRCLE_ROLES } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { rollupColumns, ts } from './columns.ts';

import { users } from './users-schema.ts';

export { accountLinks, loginClients } from './account-schema.ts';
export { auditEvents } from './audit-schema.ts';
export { deviceGateways } from './gateway-schema.ts';
export { smsNumbers, smsOptOuts } from './sms-schema.ts';
export { webhookDeliveries, webhooks } from './webhook-schema.ts';
export { users };

const createdAt = () => ts('created_at').notNull().defaultNow();

/** Opaque refresh tokens, stored as SHA-256; a `family` is one login, revoked whole on reuse. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    family: uuid('family').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    /** When it was exchanged for a successor (`revokedAt` is set then too); else null. */
    rotatedAt: ts('rotated_at'),
    /**
     * The successor's token, sealed (`TokenService.sealSuccessor`), so a retry within the grace
     * gets that same successor back instead of a second line of the login. Cleared once the
     * grace is over or the login ends.
     */
    successor: text('successor'),
    /** The login passed a second factor (a code or recovery code); every rotation keeps it. */
    twoFactor: boolean('two_factor').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_idx').on(t.tokenHash),
    index('refresh_tokens_user_idx').on(t.userId),
  ],
);

/** Single-use recovery codes of a two-factor sign-in, kept as keyed hashes (auth/two-factor.ts). */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
);

/**
 * Read-only links to one device (its newest reading, history and report) for someone without an
 * account, until `expiresAt` or a revocation. Only the token's hash is kept.
 */
export const shareLinks = pgTable(
  'share_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    /** Who made it: only they list and revoke it. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('share_links_token_idx').on(t.tokenHash),
    index('share_links_device_idx').on(t.deviceId),
  ],
);

/**
 * Logins ended by a logout before their access tokens expired: a token whose session (`sid`, its
 * refresh family; `jti` for a token outside any login) is here is refused. A row is needed only
 * until the last access token of that session expires, then pruned.
 */
export const revokedSessions = pgTable(
  'revoked_sessions',
  {
    sessionId: text('session_id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('revoked_sessions_expires_idx').on(t.expiresAt)],
);

/** Web Push subscriptions: the spec's "FCM tokens", one per connected browser. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    lastSuccessAt: ts('last_success_at'),
    /** The newest receipt (shown, opened) of any push sent to it: proof that it still receives. */
    lastReceiptAt: ts('last_receipt_at'),
    /** When the last daily check was queued for it. */
    lastCheckAt: ts('last_check_at'),
    /** Daily checks sent since its last receipt. */
    unansweredChecks: integer('unanswered_checks').notNull().default(0),
    /** Set when its checks went unanswered (channel health): it is "not receiving" until a receipt. */
    notReceivingSince: ts('not_receiving_since'),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_idx').on(t.endpoint),
    index('push_subscriptions_user_idx').on(t.userId),
  ],
);

export const devices = pgTable(
  'devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** A compact key for the time-series tables, where a 16-byte uuid per reading would double the index. */
    seq: integer('seq').notNull().generatedAlwaysAsIdentity(),
    deviceName: text('device_name').notNull(),
    isValid: boolean('is_valid').notNull().default(true),
    activationCode: text('activation_code').notNull(),
    apiAuthCode: text('api_auth_code').notNull(),
    lastUpdate: ts('last_update'),
    /**
     * The battery of the newest reading that reported one (percent), kept by ingest beside
     * `last_update` so the admin's list sorts and filters by it; migration 0016 adds its search indexes.
     */
    battery: real('battery'),
    /**
     * Counts the ingest batches that stored a late reading (`LATE_READING_MS`): the charts' finished
     * buckets kept by a server process (`HistoryBucketCache`) are used only at the version they were read at.
     */
    historyVersion: integer('history_version').notNull().default(0),
    /** Manufacturer and model a Bluetooth gateway read from the Device Information service (0x180A). */
    make: text('make'),
    model: text('model'),
    /** Alarm conditions and escalation timings that differ from the defaults (shared `effectiveAlarmSettings`). */
    alarmSettings: jsonb('alarm_settings').notNull().default({}),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('devices_seq_idx').on(t.seq),
    uniqueIndex('devices_activation_code_idx').on(t.activationCode),
    uniqueIndex('devices_api_auth_code_idx').on(t.apiAuthCode),
  ],
);

export const deviceUsers = pgTable(
  'device_users',
  {
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Primary contacts are notified of every alert; backup contacts when a high-priority one escalates. */
    contactRole: text('contact_role', { enum: ['primary', 'backup'] })
      .notNull()
      .default('primary'),
    /**
     * The person's place in the device's circle: its owner (the first to add it by activation
     * code) may rename it for everyone and change its alarm settings; carers and viewers see them.
     */
    circleRole: text('circle_role', { enum: CIRCLE_ROLES }).notNull().default('carer'),
    /** This person's own name for the device, shown to them instead of the shared name; null: none. */
    nickname: text('nickname'),
    /**
     * Added by activation code to a device that already had an owner: no access until an owner
     * confirms (null: confirmed, or added by invitation or by an admin).
     */
    pendingSince: ts('pending_since'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.deviceId, t.userId] }),
    index('device_users_user_idx').on(t.userId, t.deviceId),
  ],
);

/** A user's own name for a device seen through a care team only (an assignment keeps it in device_users). */
export const deviceNicknames = pgTable(
  'device_nicknames',
  {
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    nickname: text('nickname').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.userId] })],
);

/** A care team: its users see every device of the team, as if each were assigned to them. */
export const teams = pgTable('teams', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique('teams_name_key'),
  createdAt: createdAt(),
});

export const teamDevices = pgTable(
  'team_devices',
  {
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.deviceId] }), index('team_devices_device_idx').on(t.deviceId)],
);

/** A team's users; `contactRole` applies to every device of the team, as in `device_users`. */
export const teamUsers = pgTable(
  'team_users',
  {
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    contactRole: text('contact_role', { enum: ['primary', 'backup'] })
      .notNull()
      .default('primary'),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] }), index('team_users_user_idx').on(t.userId)],
);

/**
 * Raw readings. On the database this table is partitioned by week of `recorded_at` (see
 * `db/partitions.ts` and migration 0004), which drizzle cannot describe: partitions are created
 * ahead and on demand, and dropped whole after RETENTION_DAYS. Columns are ordered to waste no
 * alignment padding. There is deliberately no unique index on the messageId: the ingest path holds
 * the device's row lock and skips a stored (device, messageId) itself (`insertReadings`), which
 * saves an index as large as the table's time index.
 */
export const healthRecords = pgTable(
  'health_records',
  {
    id: bigint('id', { mode: 'bigint' }).notNull().default(sql`nextval('health_reading_ids')`),
    recordedAt: ts('recorded_at').notNull(),
    deviceSeq: integer('device_seq')
      .notNull()
      .references(() => devices.seq, { onDelete: 'cascade' }),
    spo2: real('spo2'),
    heartRate: real('heart_rate'),
    temperature: real('temperature'),
    battery: real('battery'),
    messageId: text('message_id'),
  },
  (t) => [index('health_records_device_recorded_idx').on(t.deviceSeq, t.recordedAt)],
);

export const alerts = pgTable(
  'alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    messageId: text('message_id'),
    alertType: text('alert_type').notNull(),
    alertTitle: text('alert_title').notNull(),
    alertMessage: text('alert_message').notNull(),
    /** Extra facts for people and machines (the value that raised it, …). */
    details: jsonb('details'),
    priority: text('priority', { enum: ['high', 'medium', 'low'] })
      .notNull()
      .default('medium'),
    status: text('status', { enum: ['active', 'acknowledged', 'resolved'] })
      .notNull()
      .default('active'),
    /** Who acknowledged it (name kept as it was then: the record outlives the account). */
    acknowledgedAt: ts('acknowledged_at'),
    acknowledgedBy: uuid('acknowledged_by').references(() => users.id, { onDelete: 'set null' }),
    acknowledgedByName: text('acknowledged_by_name'),
    ackNote: text('ack_note'),
    /** Resolved by a person (marked handled) or, with no name, by its episode ending. */
    resolvedAt: ts('resolved_at'),
    resolvedBy: uuid('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    resolvedByName: text('resolved_by_name'),
    resolveNote: text('resolve_note'),
    recordedAt: ts('recorded_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // Migration 0033: each device's alerts in the orders the lists read them (and its counts).
    index('alerts_device_recorded_idx').on(t.deviceId, t.recordedAt.desc(), t.id.desc()),
    index('alerts_device_created_idx').on(t.deviceId, t.createdAt.desc(), t.recordedAt.desc(), t.id.desc()),
    index('alerts_unresolved_idx').on(t.deviceId, t.alertType).where(sql`${t.status} <> 'resolved'`),
    uniqueIndex('alerts_device_message_idx').on(t.deviceId, t.messageId),
  ],
);

/** Read state is per user. */
export const alertReads = pgTable(
  'alert_reads',
  {
    alertId: uuid('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    readAt: ts('read_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.alertId, t.userId] })],
);

/**
 * The alarm condition of one (device, alert type) that is not quietly normal: `pending` (out of
 * range, waiting out its delay), `active` (raised) or `clearing` (back in range, waiting out its
 * clearing time). `since` is the device time the phase began. While active or clearing, no new
 * alert of that type is raised.
 */
export const alertEpisodes = pgTable(
  'alert_episodes',
  {
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    alertType: text('alert_type').notNull(),
    phase: text('phase', { enum: ['pending', 'active', 'clearing'] })
      .notNull()
      .default('active'),
    since: ts('since').notNull().defaultNow(),
    priority: text('priority', { enum: ['high', 'medium', 'low'] })
      .notNull()
      .default('medium'),
    /** Device time of the last reading judged (a long gap restarts pending or clearing). */
    seenAt: ts('seen_at').notNull().defaultNow(),
    /** High priority: since when the value stayed clear of the critical level (see `calmDown`). */
    calmSince: ts('calm_since'),
    openedAt: ts('opened_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.alertType] })],
);

/**
 * The escalation of an unacknowledged high-priority alert, as a durable job: any server process
 * may run a due step (`next_at`), once, under a row lock; a restart loses nothing.
 */
export const alertEscalations = pgTable(
  'alert_escalations',
  {
    alertId: uuid('alert_id')
      .primaryKey()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    nextAt: ts('next_at').notNull(),
    /** Repeats sent so far. */
    steps: integer('steps').notNull().default(0),
    backupAt: ts('backup_at').notNull(),
    backupNotified: boolean('backup_notified').notNull().default(false),
    stopsAt: ts('stops_at').notNull(),
    repeatEveryMs: integer('repeat_every_ms').notNull(),
  },
  (t) => [index('alert_escalations_next_idx').on(t.nextAt)],
);

/** One person's snooze of one device's alert type: no push or e-mail to them until `until`. */
export const alertSnoozes = pgTable(
  'alert_snoozes',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    alertType: text('alert_type').notNull(),
    until: ts('until').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceId, t.alertType] })],
);

/**
 * What happened to an alert after it was raised, append-only: each notification sent (push,
 * e-mail) and whether it was delivered, and each escalation step. Raised, acknowledged and
 * resolved are on the alert row itself.
 */
export const alertEvents = pgTable(
  'alert_events',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    alertId: uuid('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    at: ts('at').notNull().defaultNow(),
    /** `fallback`: the person was tried on `channel` because no receipt came (the fallback ladder). */
    kind: text('kind', { enum: ['notified', 'shown', 'opened', 'escalated', 'fallback'] }).notNull(),
    /** Who was notified (kept by name: the record outlives the account). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    userName: text('user_name'),
    channel: text('channel', { enum: ['push', 'email', 'sms', 'webhook'] }),
    /** Delivered (true), failed for good (false); null for escalation steps. */
    ok: boolean('ok'),
    detail: text('detail'),
  },
  (t) => [index('alert_events_alert_idx').on(t.alertId, t.at)],
);

/**
 * The notification outbox: every push and e-mail of every alert (first send and each escalation
 * step) as a row, written in the transaction that stores the alert or takes the step, and run by
 * the workers of every server process, each row once (a lease taken with SKIP LOCKED). A `fanout`
 * row names the alert and whom to tell; a worker turns it, in one transaction, into one row per
 * browser (`push`) and per address (`email`). Sent rows are deleted (their outcome is on the
 * alert's timeline); rows out of tries stay as `dead`.
 */
export const notificationJobs = pgTable(
  'notification_jobs',
  {
    /** Also the message's idempotency id: a receiver drops a second message with the same id. */
    id: uuid('id').primaryKey().defaultRandom(),
    /** `fallback`: one person's fallback ladder for a high-priority alert (its next rung at `run_at`). */
    kind: text('kind', { enum: ['fanout', 'fallback', 'push', 'email', 'sms', 'webhook'] }).notNull(),
    /** Not a foreign key: a job outlives nothing, and an alert deleted meanwhile records nothing. */
    alertId: uuid('alert_id').notNull(),
    /** 0 for the first send, n for the n-th escalation step. */
    step: integer('step').notNull().default(0),
    /** A fanout row: whom to tell. */
    contactIds: uuid('contact_ids').array(),
    /** A delivery row: whom it is for, and where (push subscription id, e-mail address). */
    userId: uuid('user_id'),
    target: text('target'),
    /** fanout: the alert as published; push: the notification; email: the mail. */
    payload: jsonb('payload').notNull(),
    status: text('status', { enum: ['queued', 'dead'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    runAt: ts('run_at').notNull().defaultNow(),
    /** A worker holds the row until then; past it another worker may take it again. */
    leaseUntil: ts('lease_until'),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('notification_jobs_due_idx').on(t.runAt).where(sql`${t.status} = 'queued'`)],
);

/**
 * Readings rolled up per device and minute, and per hour, kept in the ingest transaction from the
 * rows it stored: additive (count, sum, min, max), so late and out-of-order readings land where
 * they belong and a resent one (skipped by its messageId) is never counted twice.
 */
export const healthRollupsMinute = pgTable(
  'health_rollups_minute',
  rollupColumns(() => devices.seq),
  (t) => [primaryKey({ columns: [t.deviceSeq, t.bucket] })],
);
export const healthRollupsHour = pgTable(
  'health_rollups_hour',
  rollupColumns(() => devices.seq),
  (t) => [primaryKey({ columns: [t.deviceSeq, t.bucket] })],
);
