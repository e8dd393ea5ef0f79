import { messageOnly, type PushBrowser, pushBrowsersResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api, onSuccess } from '@/lib/store/api.ts';

/** POST /push/subscriptions in the store: the browsers that receive this user's push notifications. */
export const pushBrowsersApi = api.injectEndpoints({
  endpoints: (build) => ({
    pushBrowsers: build.query<PushBrowser[], void>({
      query: () => ({ path: '/push/subscriptions', schema: pushBrowsersResponse }),
      transformResponse: (response: z.infer<typeof pushBrowsersResponse>) => response.data.subscriptions,
      keepUnusedDataFor: 0,
    }),
  }),
});

/** POST /push/subscriptions/:id/delete: that browser stops receiving the user's notifications. */
export const removePushBrowserApi = api.injectEndpoints({
  endpoints: (build) => ({
    removePushBrowser: build.mutation<unknown, string>({
      query: (id) => ({ path: `/push/subscriptions/${encodeURIComponent(id)}/delete`, schema: messageOnly }),
      onQueryStarted: onSuccess((_: unknown, id: string) =>
        pushBrowsersApi.util.updateQueryData('pushBrowsers', undefined, (browsers) =>
          browsers.filter((b) => b._id !== id),
        ),
      ),
    }),
  }),
});

export const { usePushBrowsersQuery } = pushBrowsersApi;
export const { useRemovePushBrowserMutation } = removePushBrowserApi;
