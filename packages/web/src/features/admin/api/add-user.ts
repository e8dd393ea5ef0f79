import { type AddUserInput, type AdminUser, contracts } from '@vitalwatch/shared';
import { api, onSuccess } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';
import { userSaved } from './get-users.ts';

/** `contracts.admin.addUser`: a new account with the role the admin chose. */
export const addUserApi = api.injectEndpoints({
  endpoints: (build) => ({
    addUser: build.mutation<AdminUser, AddUserInput>({
      ...fromContract(
        contracts.admin.addUser,
        (body: AddUserInput) => ({ body }),
        (response) => response.data.user,
      ),
      onQueryStarted: onSuccess(userSaved),
    }),
  }),
});

export const { useAddUserMutation } = addUserApi;
