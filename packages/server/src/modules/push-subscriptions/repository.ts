import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/index.ts';
import { pushSubscriptions } from '../../db/schema.ts';

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

/** Every browser subscribed by any of these users. */
export const subscriptionsOfUsers = async (tx: Tx, userIds: string[]): Promise<PushSubscriptionRow[]> =>
  userIds.length === 0
    ? []
    : tx.select().from(pushSubscriptions).where(inArray(pushSubscriptions.userId, userIds));

export const subscriptionsOfUser = async (tx: Tx, userId: string): Promise<PushSubscriptionRow[]> =>
  tx
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(pushSubscriptions.createdAt);

/** Delete one of the user's subscriptions; false when it is not theirs or does not exist. */
export async function deleteSubscriptionOfUser(tx: Tx, userId: string, id: string): Promise<boolean> {
  const rows = await tx
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.userId, userId)))
    .returning({ id: pushSubscriptions.id });
  return rows.length === 1;
}

/** Disconnect the user's browser with this endpoint, if it is theirs. */
export const deleteSubscriptionOfUserByEndpoint = async (tx: Tx, userId: string, endpoint: string) => {
  await tx
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.userId, userId)));
};

/** Forget a subscription the push service called gone (404/410): the browser unsubscribed. */
export const deleteSubscription = async (tx: Tx, id: string) => {
  await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
};

export const markDelivered = async (tx: Tx, id: string, at: Date) => {
  await tx.update(pushSubscriptions).set({ lastSuccessAt: at }).where(eq(pushSubscriptions.id, id));
};

/**
 * A browser of this user reported a push shown or opened: it receives. Its unanswered checks start
 * again from none, and a "not receiving" mark is lifted.
 */
export const markReceived = async (tx: Tx, id: string, userId: string, at: Date) => {
  await tx
    .update(pushSubscriptions)
    .set({
      lastReceiptAt: sql`greatest(${pushSubscriptions.lastReceiptAt}, ${at.toISOString()}::timestamptz)`,
      unansweredChecks: 0,
      notReceivingSince: null,
    })
    .where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.userId, userId)));
};
