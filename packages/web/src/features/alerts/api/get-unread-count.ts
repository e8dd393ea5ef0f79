import { contracts } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';

/** `contracts.alert.page` `{limit: 1}` in the store: how many of the user's alerts they have not read. */
export const unreadCountApi = api.injectEndpoints({
  endpoints: (build) => ({
    unreadAlertsCount: build.query<number, void>({
      ...fromContract(
        contracts.alert.page,
        () => ({ body: { limit: 1 } }),
        (response) => response.data.unreadCount,
      ),
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
