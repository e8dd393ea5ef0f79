import { type AddUserInput, type AdminUser, adminUserResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api, onSuccess } from '@/lib/store/api.ts';
import { userSaved } from './get-users.ts';

/** POST /admin/add-user: a new account with the role the admin chose. */
export const addUserApi = api.injectEndpoints({
  endpoints: (build) => ({
    addUser: build.mutation<AdminUser, AddUserInput>({
      query: (user) => ({ path: '/admin/add-user', body: user, auth: 'admin', schema: adminUserResponse }),
      transformResponse: (response: z.infer<typeof adminUserResponse>) => response.data.user,
      onQueryStarted: onSuccess(userSaved),
    }),
  }),
});

export const { useAddUserMutation } = addUserApi;
