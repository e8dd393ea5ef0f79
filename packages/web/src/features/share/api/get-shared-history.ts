import { contracts, type SharedHistory } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';

/** What the shared page asks of the device's history: a window of time, as ISO instants. */
export interface SharedHistoryArgs {
  token: string;
  from: string;
  to: string;
}

/** `contracts.shared.history` in the store: the window's readings count and averages (the last 24 hours at most). */
export const sharedHistoryApi = api.injectEndpoints({
  endpoints: (build) => ({
    sharedHistory: build.query<SharedHistory, SharedHistoryArgs>({
      ...fromContract(
        contracts.shared.history,
        ({ token, ...body }: SharedHistoryArgs) => ({ params: { token }, body }),
        (response) => response.data,
      ),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useSharedHistoryQuery } = sharedHistoryApi;
