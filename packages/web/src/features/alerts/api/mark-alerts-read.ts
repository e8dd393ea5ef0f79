import { ALERTS_PAGE_MAX_LIMIT, markReadResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api-client.ts';
import { type ApiCall, api, failureOf, onSuccess } from '@/lib/store/api.ts';
import { inChunks } from '../utils/in-chunks.ts';
import { alertsRead } from './alert-cache.ts';
import { type AlertQuery, alertsPageCall } from './get-alerts-page.ts';

/** POST /alert/mark-read: marks these alerts read for the user; answers the ids it changed. */
const markReadCall = (ids: readonly string[]): ApiCall<z.infer<typeof markReadResponse>> => ({
  path: '/alert/mark-read',
  body: { data: { alerts: ids } },
  schema: markReadResponse,
});

/**
 * Every unread alert matching the filters, read page by page (the server has no "mark all"), with
 * the ones the list shows unread, marked read in batches. Answers their ids.
 */
async function markAllRead(query: AlertQuery, shownUnread: readonly string[]): Promise<string[]> {
  const ids = new Set(shownUnread);
  let cursor: string | undefined;
  do {
    const call = alertsPageCall({ ...query, cursor, limit: ALERTS_PAGE_MAX_LIMIT });
    const page = (await apiRequest(call.path, call)).data;
    for (const alert of page.alerts) if (!alert.isRead) ids.add(alert._id);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  for (const chunk of inChunks([...ids])) {
    const call = markReadCall(chunk);
    await apiRequest(call.path, call);
  }
  return [...ids];
}

/**
 * Marking read (spec 4): applied to every cached list once the server agrees, never before; read
 * alerts are not sent again.
 */
export const markAlertsReadApi = api.injectEndpoints({
  endpoints: (build) => ({
    markAlertsRead: build.mutation<string[], readonly string[]>({
      query: markReadCall,
      transformResponse: (response: z.infer<typeof markReadResponse>) => response.data.alerts,
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
