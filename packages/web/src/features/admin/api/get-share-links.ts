import { type AdminShareLink, contracts } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';

/** `contracts.adminShare.list`: every share link, newest first, fetched afresh each time the screen opens. */
export const shareLinksApi = api.injectEndpoints({
  endpoints: (build) => ({
    adminShareLinks: build.query<AdminShareLink[], void>({
      ...fromContract(
        contracts.adminShare.list,
        () => ({}),
        (response) => response.data.links,
      ),
      // States change with time (expiry), so never from a stale cache.
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useAdminShareLinksQuery } = shareLinksApi;
