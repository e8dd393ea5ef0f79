import { index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';

/**
 * A person's phone number for alert SMS (migration 0022) and its verification: the code is kept
 * only as a hash. The sends window stays when the number is removed, so removing does not reset
 * the limit. The owner's foreign key is in the SQL.
 */
export const smsNumbers = pgTable(
  'sms_numbers',
  {
    userId: uuid('user_id').primaryKey(),
    /** E.164, or null once removed. */
    phone: text('phone'),
    verifiedAt: ts('verified_at'),
    codeHash: text('code_hash'),
    codeExpiresAt: ts('code_expires_at'),
    codeAttempts: integer('code_attempts').notNull().default(0),
    sendsWindowStart: ts('sends_window_start'),
    sendsInWindow: integer('sends_in_window').notNull().default(0),
  },
  (t) => [index('sms_numbers_phone_idx').on(t.phone)],
);

/** Numbers that replied STOP (or that the provider refused as unsubscribed); START removes the row. */
export const smsOptOuts = pgTable('sms_opt_outs', {
  phone: text('phone').primaryKey(),
  at: ts('at').notNull().defaultNow(),
});
