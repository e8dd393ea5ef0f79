import { type AdminShareLink, adminShareLinkResponse, adminShareLinksResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api, onSuccess } from '@/lib/store/api.ts';
import { upsertById } from '../utils/list-updates.ts';

/** GET /admin/share-links: every share link, newest first, fetched afresh each time the screen opens. */
export const shareLinksApi = api.injectEndpoints({
  endpoints: (build) => ({
    adminShareLinks: build.query<AdminShareLink[], void>({
      query: () => ({
        path: '/admin/share-links',
        method: 'GET',
        auth: 'admin',
        schema: adminShareLinksResponse,
      }),
      transformResponse: (response: z.infer<typeof adminShareLinksResponse>) => response.data.links,
      // States change with time (expiry), so never from a stale cache.
      keepUnusedDataFor: 0,
    }),
  }),
});

/** A link the server has revoked takes its new state in the list. */
const linkRevoked = (link: AdminShareLink) =>
  shareLinksApi.util.updateQueryData('adminShareLinks', undefined, (links) => upsertById(links, link));

/** POST /admin/share-links/:id/revoke: ends a live link; answers it as it is now. */
export const revokeShareLinkApi = api.injectEndpoints({
  endpoints: (build) => ({
    revokeShareLink: build.mutation<AdminShareLink, string>({
      query: (id) => ({
        path: `/admin/share-links/${encodeURIComponent(id)}/revoke`,
        auth: 'admin',
        schema: adminShareLinkResponse,
      }),
      transformResponse: (response: z.infer<typeof adminShareLinkResponse>) => response.data.link,
      onQueryStarted: onSuccess(linkRevoked),
    }),
  }),
});

export const { useAdminShareLinksQuery } = shareLinksApi;
export const { useRevokeShareLinkMutation } = revokeShareLinkApi;
