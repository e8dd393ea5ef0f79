import type { PushBrowser } from '@vitalwatch/shared';
import type { PushSubscriptionRow } from './repository.ts';

const hostOf = (endpoint: string): string => {
  try {
    return new URL(endpoint).host;
  } catch {
    return '';
  }
};

/** A subscription as its owner sees it: which browser, since when, last delivery; no endpoint or keys. */
export const presentBrowser = (row: PushSubscriptionRow): PushBrowser => ({
  _id: row.id,
  userAgent: row.userAgent,
  pushService: hostOf(row.endpoint),
  createdAt: row.createdAt.toISOString(),
  lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null,
  lastReceiptAt: row.lastReceiptAt?.toISOString() ?? null,
  notReceivingSince: row.notReceivingSince?.toISOString() ?? null,
});
