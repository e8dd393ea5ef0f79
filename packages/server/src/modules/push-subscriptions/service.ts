import type { PushBrowser } from '@vitalwatch/shared';
import type { Db } from '../../db/index.ts';
import { notFound } from '../../errors.ts';
import { isUuid } from '../../lib/ids.ts';
import { presentBrowser } from './presenter.ts';
import * as repo from './repository.ts';

// What push delivery uses of the subscriptions: only through this file.
export {
  deleteSubscription,
  markDelivered,
  type PushSubscriptionRow,
  subscriptionsOfUsers,
} from './repository.ts';

/** A user's connected browsers (push subscriptions): list and disconnect, only their own. */
export class PushBrowsersService {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
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
