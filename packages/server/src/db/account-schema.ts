import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { users } from './users-schema.ts';

/**
 * Single-use links mailed to an account: a password reset or the proof of an e-mail address.
 * Only the token's hash is kept; a link works once (`usedAt`) and until `expiresAt`.
 */
export const accountLinks = pgTable(
  'account_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** None for the decoy a request for an unknown address writes (the same work either way); it never works. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['reset', 'verify'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    /** The address the link was sent to: verifying proves this one, not a later one. */
    email: text('email').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('account_links_token_idx').on(t.tokenHash),
    index('account_links_user_idx').on(t.userId, t.purpose),
  ],
);

/**
 * The browser of each login (refresh token family) as last seen by an authenticated request:
 * what Profile → Sessions lists. Written at most once a minute per login.
 */
export const loginClients = pgTable(
  'login_clients',
  {
    family: uuid('family').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userAgent: text('user_agent'),
    ip: text('ip'),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
  },
  (t) => [index('login_clients_user_idx').on(t.userId)],
);
