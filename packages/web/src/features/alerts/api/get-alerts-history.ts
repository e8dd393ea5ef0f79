import { ALERTS_PAGE_SIZE } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { type AlertQuery, type AlertsPage, alertsPageQuery } from './get-alerts-page.ts';

/**
 * Alerts History in the store: pages of 10 (`contracts.alert.page`), newest first or by priority, each
 * after the keyset cursor of the one before ('Load More Alerts'). One cache entry per set of
 * filters, fetched afresh when they change.
 */
export const alertsHistoryApi = api.injectEndpoints({
  endpoints: (build) => ({
    alertsHistory: build.infiniteQuery<AlertsPage, AlertQuery, string | null>({
      query: ({ queryArg, pageParam }) =>
        alertsPageQuery.query({
          ...queryArg,
          ...(pageParam ? { cursor: pageParam } : {}),
          limit: ALERTS_PAGE_SIZE,
        }),
      transformResponse: alertsPageQuery.transformResponse,
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (lastPage) => lastPage.nextCursor,
      },
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useAlertsHistoryInfiniteQuery } = alertsHistoryApi;
