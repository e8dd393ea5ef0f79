import { contracts, type ShareLink } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';

/** `contracts.share.list` in the store: the caller's links to one device, newest first. */
export const shareLinksApi = api.injectEndpoints({
  endpoints: (build) => ({
    shareLinks: build.query<ShareLink[], string>({
      ...fromContract(
        contracts.share.list,
        (deviceId: string) => ({ body: { deviceId } }),
        (response) => response.data.links,
      ),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useShareLinksQuery } = shareLinksApi;
