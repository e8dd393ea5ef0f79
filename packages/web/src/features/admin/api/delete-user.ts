import { messageOnly } from '@vitalwatch/shared';
import { api, onSuccess } from '@/lib/store/api.ts';
import { userRemoved } from './get-users.ts';

/** POST /admin/delete-user/:id: removes the account, its sessions, browsers and device assignments. */
export const deleteUserApi = api.injectEndpoints({
  endpoints: (build) => ({
    deleteUser: build.mutation<unknown, string>({
      query: (id) => ({
        path: `/admin/delete-user/${encodeURIComponent(id)}`,
        auth: 'admin',
        schema: messageOnly,
      }),
      onQueryStarted: onSuccess(userRemoved),
    }),
  }),
});

export const { useDeleteUserMutation } = deleteUserApi;
