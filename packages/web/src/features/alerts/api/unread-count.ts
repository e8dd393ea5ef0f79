import { alertsPageResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api } from '@/lib/store/api.ts';

/** POST /alert/all `{limit: 1}` in the store: how many of the user's alerts they have not read. */
export const unreadCountApi = api.injectEndpoints({
  endpoints: (build) => ({
    unreadAlertsCount: build.query<number, void>({
      query: () => ({ path: '/alert/all', body: { limit: 1 }, schema: alertsPageResponse }),
      transformResponse: (response: z.infer<typeof alertsPageResponse>) => response.data.unreadCount,
      // The header keeps its last count; the next reconnect or read asks again.
      onQueryStarted: async (_arg, { queryFulfilled }) => {
        await queryFulfilled.catch((failure: unknown) =>
          console.warn('Could not fetch the unread alert count', failure),
        );
      },
    }),
  }),
});

export const { useUnreadAlertsCountQuery } = unreadCountApi;

/** Asks the server again (after alerts were marked read: which of them were unread, it knows). */
export const refreshUnreadCount = () =>
  unreadCountApi.endpoints.unreadAlertsCount.initiate(undefined, { forceRefetch: true, subscribe: false });
