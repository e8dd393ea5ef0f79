import { contracts, type ShareLink } from '@vitalwatch/shared';
import { api, onSuccess } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';
import { shareLinksApi } from './get-share-links.ts';

interface RevokeArgs {
  id: string;
  deviceId: string;
}

/** `contracts.share.revoke`: the link stops working; the caller's links to its device come back. */
export const revokeShareLinkApi = api.injectEndpoints({
  endpoints: (build) => ({
    revokeShareLink: build.mutation<ShareLink[], RevokeArgs>({
      ...fromContract(
        contracts.share.revoke,
        ({ id }: RevokeArgs) => ({ params: { id } }),
        (response) => response.data.links,
      ),
      onQueryStarted: onSuccess((links: ShareLink[], { deviceId }: RevokeArgs) =>
        shareLinksApi.util.updateQueryData('shareLinks', deviceId, () => links),
      ),
    }),
  }),
});

export const { useRevokeShareLinkMutation } = revokeShareLinkApi;
