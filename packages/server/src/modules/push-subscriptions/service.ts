import type { PushBrowser } from '@vitalwatch/shared';
import type { Db, Tx } from '../../db/index.ts';
import { notFound } from '../../errors.ts';
import { isUuid } from '../../lib/ids.ts';
import { presentBrowser } from './presenter.ts';
import type { PushSubscriptionRow } from './repository.ts';
import * as repo from './repository.ts';

export type { PushSubscriptionRow } from './repository.ts';

/**
 * A user's connected browsers (push subscriptions): list and disconnect, only their own; and, for
 * push delivery, every browser of a set of users and what became of a send.
 */
export class PushBrowsersService {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  /** Every browser of these users (push delivery sends to each), in `tx` when given. */
  ofUsers(userIds: string[], tx: Tx = this.db): Promise<PushSubscriptionRow[]> {
    return repo.subscriptionsOfUsers(tx, userIds);
  }

  /** A push reached the browser's push service. */
  async delivered(id: string, at: Date): Promise<void> {
    await repo.markDelivered(this.db, id, at);
  }

  /** A receipt (shown, opened) came from this browser of this user: it receives. */
  async received(id: string, userId: string, at: Date): Promise<void> {
    await repo.markReceived(this.db, id, userId, at);
  }

  /** The push service says the subscription is gone: forget it. */
  async forget(id: string): Promise<void> {
    await repo.deleteSubscription(this.db, id);
  }

  async list(userId: string): Promise<PushBrowser[]> {
    return (await repo.subscriptionsOfUser(this.db, userId)).map(presentBrowser);
  }

  /** Idempotent: signing out twice, or after the browser moved to another user, is not an error. */
  async removeByEndpoint(userId: string, endpoint: string): Promise<void> {
    await repo.deleteSubscriptionOfUserByEndpoint(this.db, userId, endpoint);
  }

  /** 404 for another user's browser as for one that does not exist. */
  async remove(userId: string, id: string): Promise<void> {
    if (!isUuid(id) || !(await repo.deleteSubscriptionOfUser(this.db, userId, id))) {
      throw notFound('Browser not found');
    }
  }
}
