import { CIRCLE_ROLES } from '@vitalwatch/shared';
import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { devices, users } from './schema.ts';

/**
 * An owner's invitation into a device's care circle, sent by e-mail: a single-use link valid
 * CIRCLE_INVITATION_DAYS. One open invitation per (device, address): a second replaces the first.
 * `invited_by` names its sender; closing that account deletes their invitations. Kept out of
 * schema.ts (which is near its size limit); it refers to it, so schema.ts cannot re-export it.
 */
export const circleInvitations = pgTable(
  'circle_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    /** Lower-cased. */
    email: text('email').notNull(),
    circleRole: text('circle_role', { enum: CIRCLE_ROLES }).notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: uuid('invited_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: ts('expires_at').notNull(),
    acceptedAt: ts('accepted_at'),
    acceptedBy: uuid('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: ts('revoked_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('circle_invitations_token_idx').on(t.tokenHash),
    index('circle_invitations_device_idx').on(t.deviceId, t.email),
    index('circle_invitations_invited_by_idx').on(t.invitedBy),
  ],
);
