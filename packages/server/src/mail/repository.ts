import { and, inArray, isNotNull } from 'drizzle-orm';
import type { Tx } from '../db/index.ts';
import { users } from '../db/schema.ts';

/**
 * Where to mail these users an alert, and whether each asked for alert e-mails: only to an address
 * its owner proved (an unverified account gets none).
 */
export const alertEmailRecipients = async (tx: Tx, userIds: string[]) =>
  userIds.length === 0
    ? []
    : tx
        .select({
          id: users.id,
          email: users.email,
          fullName: users.fullName,
          alertEmails: users.alertEmails,
        })
        .from(users)
        .where(and(inArray(users.id, userIds), isNotNull(users.emailVerifiedAt)));
