import type { alertsPageResponse } from '@vitalwatch/shared';
import { ALERTS_PAGE_SIZE } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api } from '@/lib/store/api.ts';
import { type AlertQuery, type AlertsPage, alertsPageCall } from './get-alerts-page.ts';

/**
 * Alerts History in the store: pages of 10 (POST /alert/all), newest first or by priority, each
 * after the keyset cursor of the one before ('Load More Alerts'). One cache entry per set of
 * filters, fetched afresh when they change.
 */
export const alertsHistoryApi = api.injectEndpoints({
  endpoints: (build) => ({
    alertsHistory: build.infiniteQuery<AlertsPage, AlertQuery, string | null>({
      query: ({ queryArg, pageParam }) =>
        alertsPageCall({ ...queryArg, ...(pageParam ? { cursor: pageParam } : {}), limit: ALERTS_PAGE_SIZE }),
      transformResponse: (response: z.infer<typeof alertsPageResponse>) => response.data,
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (lastPage) => lastPage.nextCursor,
      },
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useAlertsHistoryInfiniteQuery } = alertsHistoryApi;
