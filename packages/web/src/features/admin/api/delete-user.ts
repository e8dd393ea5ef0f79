import { contracts } from '@vitalwatch/shared';
import { api, onSuccess } from '@/lib/store/api.ts';
import { callOf } from '@/lib/store/contract-query.ts';
import { userRemoved } from './get-users.ts';

/** `contracts.admin.deleteUser`: removes the account, its sessions, browsers and device assignments. */
export const deleteUserApi = api.injectEndpoints({
  endpoints: (build) => ({
    deleteUser: build.mutation<unknown, string>({
      query: (id) => callOf(contracts.admin.deleteUser, { params: { id } }),
      onQueryStarted: onSuccess(userRemoved),
    }),
  }),
});

export const { useDeleteUserMutation } = deleteUserApi;
