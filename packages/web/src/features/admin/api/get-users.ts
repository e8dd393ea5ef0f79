import { type AdminUser, contracts } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';
import type { AppDispatch } from '@/lib/store/hooks.ts';
import { removeById, upsertById } from '../utils/list-updates.ts';
import { fleetUserRemoved, fleetUserSaved } from './get-fleet-pages.ts';

/**
 * `contracts.admin.users` in the store: everyone (`false`, User Management), or with `true` only
 * role user (who can be given devices). Fetched afresh each time a screen that shows it opens.
 */
export const adminUsersApi = api.injectEndpoints({
  endpoints: (build) => ({
    adminUsers: build.query<AdminUser[], boolean>({
      ...fromContract(
        contracts.admin.users,
        (isUser: boolean) => ({ body: { isUser } }),
        (response) => response.data.users,
      ),
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
