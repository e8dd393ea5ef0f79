import { contracts, type PushBrowser } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';

/** `contracts.push.browsers` in the store: the browsers that receive this user's push notifications. */
export const pushBrowsersApi = api.injectEndpoints({
  endpoints: (build) => ({
    pushBrowsers: build.query<PushBrowser[], void>({
      ...fromContract(
        contracts.push.browsers,
        () => ({}),
        (response) => response.data.subscriptions,
      ),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { usePushBrowsersQuery } = pushBrowsersApi;
