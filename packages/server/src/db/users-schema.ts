import { sql } from 'drizzle-orm';
import { bigint, boolean, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';

/**
 * People who sign in: users and admins. Migration 0026 adds `search_text`, generated from name,
 * username and e-mail in lowercase for the admin's search; it is left out here so no other query
 * reads it.
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    fullName: text('full_name').notNull(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['user', 'admin'] })
      .notNull()
      .default('user'),
    alertEmails: boolean('alert_emails').notNull().default(false),
    /** `{start, end, timeZone}` (shared `QuietHours`), or null. */
    quietHours: jsonb('quiet_hours'),
    /** Access tokens issued before this instant are refused (password reset, deletion of sessions). */
    tokensValidAfter: ts('tokens_valid_after').notNull().defaultNow(),
    /** How temperatures are shown to this user: 'F' or 'C' (readings are stored in °F). */
    temperatureUnit: text('temperature_unit', { enum: ['F', 'C'] })
      .notNull()
      .default('F'),
    /** The TOTP secret, sealed (auth/sealer.ts); null without two-factor sign-in. */
    totpSecret: text('totp_secret'),
    /** A secret being set up, sealed: it replaces `totpSecret` once a code from it is entered. */
    totpPending: text('totp_pending'),
    /** The newest 30 s step whose code was accepted: a code is good once, never again. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** When the owner proved the address by its link; null: alert e-mails wait for that. */
    emailVerifiedAt: ts('email_verified_at'),
    /** A daily check push to each browser that has shown nothing for a day (channel health); off by choice. */
    channelChecks: boolean('channel_checks').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    index('users_created_at_idx').on(t.createdAt),
  ],
);
