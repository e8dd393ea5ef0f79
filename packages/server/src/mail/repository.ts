import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../db/index.ts';
import { users } from '../db/schema.ts';

/** Which of these users asked for alert emails (every one of them when `all`), with where to send them. */
export const alertEmailRecipients = async (tx: Tx, userIds: string[], all = false) =>
  userIds.length === 0
    ? []
    : tx
        .select({ id: users.id, email: users.email, fullName: users.fullName })
        .from(users)
        .where(and(inArray(users.id, userIds), all ? undefined : eq(users.alertEmails, true)));
