import { contracts, type InvitationPreview } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';

/** `contracts.circle.invitation`: what a link offers and whether it still works (no account needed). */
export const invitationApi = api.injectEndpoints({
  endpoints: (build) => ({
    invitation: build.query<InvitationPreview, string>({
      ...fromContract(
        contracts.circle.invitation,
        (token: string) => ({ body: { token } }),
        (response) => response.data.invitation,
      ),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useInvitationQuery } = invitationApi;
