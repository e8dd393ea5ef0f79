import { type ContractInput, type ContractResponse, contracts, type ShareLink } from '@vitalwatch/shared';
import { api, onSuccess } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';
import { shareLinksApi } from './get-share-links.ts';

type CreateArgs = ContractInput<typeof contracts.share.create>['body'];

type Created = ContractResponse<typeof contracts.share.create>['data'];

/** `contracts.share.create`: a link to the device for `days`; its token comes back this once. */
export const createShareLinkApi = api.injectEndpoints({
  endpoints: (build) => ({
    createShareLink: build.mutation<Created, CreateArgs>({
      ...fromContract(
        contracts.share.create,
        (body: CreateArgs) => ({ body }),
        (response) => response.data,
      ),
      onQueryStarted: onSuccess(({ link }: { link: ShareLink }, { deviceId }: CreateArgs) =>
        shareLinksApi.util.updateQueryData('shareLinks', deviceId, (links) => [link, ...links]),
      ),
    }),
  }),
});

export const { useCreateShareLinkMutation } = createShareLinkApi;
