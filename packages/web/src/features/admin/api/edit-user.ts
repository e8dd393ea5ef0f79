import { type AdminUser, contracts, type EditUserInput } from '@vitalwatch/shared';
import { api, onSuccess } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';
import { userSaved } from './get-users.ts';

/** `contracts.admin.editUser`: name, username, email and role. */
export const editUserApi = api.injectEndpoints({
  endpoints: (build) => ({
    editUser: build.mutation<AdminUser, { id: string; user: EditUserInput }>({
      ...fromContract(
        contracts.admin.editUser,
        ({ id, user }: { id: string; user: EditUserInput }) => ({ params: { id }, body: user }),
        (response) => response.data.user,
      ),
      onQueryStarted: onSuccess(userSaved),
    }),
  }),
});

export const { useEditUserMutation } = editUserApi;
