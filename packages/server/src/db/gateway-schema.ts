import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';

/**
 * A browser that forwards a Bluetooth wearable's readings for one device (issue 28). Its key is
 * 256 random bits shown once; only the hash is kept. The key ingests for that device alone, like
 * the device's API code, and stops the moment it is revoked. The foreign keys to `devices` and
 * `users` (both ON DELETE CASCADE) are in migration 0019; they are left out here so this file
 * needs nothing from schema.ts.
 */
export const deviceGateways = pgTable(
  'device_gateways',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id').notNull(),
    /** Who paired it; any of the device's users may revoke it. */
    userId: uuid('user_id').notNull(),
    /** What the browser said it is ("Chrome on Android"), to tell gateways apart. */
    label: text('label').notNull(),
    keyHash: text('key_hash').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [
    uniqueIndex('device_gateways_key_idx').on(t.keyHash),
    index('device_gateways_device_idx').on(t.deviceId),
  ],
);
