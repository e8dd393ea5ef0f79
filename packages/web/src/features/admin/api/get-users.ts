import { type AdminUser, adminUsersResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api } from '@/lib/store/api.ts';
import type { AppDispatch } from '@/lib/store/hooks.ts';
import { removeById, upsertById } from '../utils/list-updates.ts';
import { fleetUserRemoved, fleetUserSaved } from './fleet.ts';

/**
 * POST /admin/all-users in the store: everyone (`false`, User Management), or with `true` only
 * role user (who can be given devices). Fetched afresh each time a screen that shows it opens.
 */
export const adminUsersApi = api.injectEndpoints({
  endpoints: (build) => ({
    adminUsers: build.query<AdminUser[], boolean>({
      query: (isUser) => ({
        path: '/admin/all-users',
        body: { isUser },
        auth: 'admin',
        schema: adminUsersResponse,
      }),
      transformResponse: (response: z.infer<typeof adminUsersResponse>) => response.data.users,
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useAdminUsersQuery } = adminUsersApi;

/** A user the server has saved (added, edited) takes its place in the list and User Management's pages. */
export const userSaved = (user: AdminUser) => (dispatch: AppDispatch) => {
  dispatch(adminUsersApi.util.updateQueryData('adminUsers', false, (users) => upsertById(users, user)));
  dispatch(fleetUserSaved(user));
};

/** A user the server has deleted leaves the list and User Management's pages. */
export const userRemoved = (_: unknown, id: string) => (dispatch: AppDispatch) => {
  dispatch(adminUsersApi.util.updateQueryData('adminUsers', false, (users) => removeById(users, id)));
  dispatch(fleetUserRemoved(id));
};
