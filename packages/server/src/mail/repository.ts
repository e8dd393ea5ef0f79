import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Tx } from '../db/index.ts';
import { users } from '../db/schema.ts';

/**
 * Which of these users asked for alert emails (every one of them when `all`), with where to send
 * them: only to an address its owner proved (an unverified account gets none).
 */
export const alertEmailRecipients = async (tx: Tx, userIds: string[], all = false) =>
  userIds.length === 0
    ? []
    : tx
        .select({ id: users.id, email: users.email, fullName: users.fullName })
        .from(users)
        .where(
          and(
            inArray(users.id, userIds),
            isNotNull(users.emailVerifiedAt),
            all ? undefined : eq(users.alertEmails, true),
          ),
        );
