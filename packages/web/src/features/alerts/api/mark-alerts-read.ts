import { ALERTS_PAGE_MAX_LIMIT, contracts } from '@vitalwatch/shared';
import { callContract } from '@/lib/call-contract.ts';
import { api, failureOf, onSuccess } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';
import { inChunks } from '../utils/in-chunks.ts';
import { alertsRead } from './alert-cache.ts';
import { type AlertQuery, getAlertsPage } from './get-alerts-page.ts';

/** `contracts.alert.markRead`: marks these alerts read for the user; answers the ids it changed. */
const markReadInput = (ids: readonly string[]) => ({ body: { data: { alerts: [...ids] } } });

/**
 * Every unread alert matching the filters, read page by page (the server has no "mark all"), with
 * the ones the list shows unread, marked read in batches. Answers their ids.
 */
async function markAllRead(query: AlertQuery, shownUnread: readonly string[]): Promise<string[]> {
  const ids = new Set(shownUnread);
  let cursor: string | undefined;
  do {
    const page = await getAlertsPage({ ...query, cursor, limit: ALERTS_PAGE_MAX_LIMIT });
    for (const alert of page.alerts) if (!alert.isRead) ids.add(alert._id);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  for (const chunk of inChunks([...ids])) await callContract(contracts.alert.markRead, markReadInput(chunk));
  return [...ids];
}

/**
 * Marking read (spec 4): applied to every cached list once the server agrees, never before; read
 * alerts are not sent again.
 */
export const markAlertsReadApi = api.injectEndpoints({
  endpoints: (build) => ({
    markAlertsRead: build.mutation<string[], readonly string[]>({
      ...fromContract(contracts.alert.markRead, markReadInput, (response) => response.data.alerts),
      onQueryStarted: onSuccess((_changed: string[], ids: readonly string[]) => alertsRead(new Set(ids))),
    }),
    /** 'Mark all as read': every unread alert matching the filters, whether the list shows it or not. */
    markAllAlertsRead: build.mutation<string[], { query: AlertQuery; shownUnread: readonly string[] }>({
      queryFn: async ({ query, shownUnread }) => {
        try {
          return { data: await markAllRead(query, shownUnread) };
        } catch (error) {
          return { error: failureOf(error) };
        }
      },
      onQueryStarted: onSuccess((ids: string[], { query }: { query: AlertQuery }) =>
        alertsRead(new Set(ids), query),
      ),
    }),
  }),
});

export const { useMarkAlertsReadMutation, useMarkAllAlertsReadMutation } = markAlertsReadApi;
