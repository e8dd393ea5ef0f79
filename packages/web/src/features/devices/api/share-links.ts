import { createShareResponse, type ShareLink, shareLinksResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api, onSuccess } from '@/lib/store/api.ts';

/** POST /share/list in the store: the caller's links to one device, newest first. */
export const shareLinksApi = api.injectEndpoints({
  endpoints: (build) => ({
    shareLinks: build.query<ShareLink[], string>({
      query: (deviceId) => ({ path: '/share/list', body: { deviceId }, schema: shareLinksResponse }),
      transformResponse: (response: z.infer<typeof shareLinksResponse>) => response.data.links,
      keepUnusedDataFor: 0,
    }),
  }),
});

export const shareLinkChangesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** POST /share/create: a link to the device for `days`; its token comes back this once. */
    createShareLink: build.mutation<
      z.infer<typeof createShareResponse>['data'],
      { deviceId: string; days: number }
    >({
      query: (body) => ({ path: '/share/create', body, schema: createShareResponse }),
      transformResponse: (response: z.infer<typeof createShareResponse>) => response.data,
      onQueryStarted: onSuccess(({ link }: { link: ShareLink }, { deviceId }: { deviceId: string }) =>
        shareLinksApi.util.updateQueryData('shareLinks', deviceId, (links) => [link, ...links]),
      ),
    }),
    /** POST /share/revoke/:id: the link stops working; the caller's links to its device come back. */
    revokeShareLink: build.mutation<ShareLink[], { id: string; deviceId: string }>({
      query: ({ id }) => ({ path: `/share/revoke/${encodeURIComponent(id)}`, schema: shareLinksResponse }),
      transformResponse: (response: z.infer<typeof shareLinksResponse>) => response.data.links,
      onQueryStarted: onSuccess((links: ShareLink[], { deviceId }: { deviceId: string }) =>
        shareLinksApi.util.updateQueryData('shareLinks', deviceId, () => links),
      ),
    }),
  }),
});

export const { useShareLinksQuery } = shareLinksApi;
export const { useCreateShareLinkMutation, useRevokeShareLinkMutation } = shareLinkChangesApi;
