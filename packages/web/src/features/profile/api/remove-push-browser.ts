import { contracts } from '@vitalwatch/shared';
import { api, onSuccess } from '@/lib/store/api.ts';
import { callOf } from '@/lib/store/contract-query.ts';
import { pushBrowsersApi } from './get-push-browsers.ts';

/** `contracts.push.removeBrowser`: that browser stops receiving the user's notifications. */
export const removePushBrowserApi = api.injectEndpoints({
  endpoints: (build) => ({
    removePushBrowser: build.mutation<unknown, string>({
      query: (id) => callOf(contracts.push.removeBrowser, { params: { id } }),
      onQueryStarted: onSuccess((_: unknown, id: string) =>
        pushBrowsersApi.util.updateQueryData('pushBrowsers', undefined, (browsers) =>
          browsers.filter((b) => b._id !== id),
        ),
      ),
    }),
  }),
});

export const { useRemovePushBrowserMutation } = removePushBrowserApi;
