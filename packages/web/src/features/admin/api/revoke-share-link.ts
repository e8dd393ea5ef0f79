import { type AdminShareLink, contracts } from '@vitalwatch/shared';
import { api, onSuccess } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';
import { upsertById } from '../utils/list-updates.ts';
import { shareLinksApi } from './get-share-links.ts';

/** A link the server has revoked takes its new state in the list. */
const linkRevoked = (link: AdminShareLink) =>
  shareLinksApi.util.updateQueryData('adminShareLinks', undefined, (links) => upsertById(links, link));

/** `contracts.adminShare.revoke`: ends a live link; answers it as it is now. */
export const revokeShareLinkApi = api.injectEndpoints({
  endpoints: (build) => ({
    revokeShareLink: build.mutation<AdminShareLink, string>({
      ...fromContract(
        contracts.adminShare.revoke,
        (id: string) => ({ params: { id } }),
        (response) => response.data.link,
      ),
      onQueryStarted: onSuccess(linkRevoked),
    }),
  }),
});

export const { useRevokeShareLinkMutation } = revokeShareLinkApi;
