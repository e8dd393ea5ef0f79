import { type AdminUser, adminUserResponse, type EditUserInput } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api, onSuccess } from '@/lib/store/api.ts';
import { userSaved } from './get-users.ts';

/** POST /admin/edit-user/:id: name, username, email and role. */
export const editUserApi = api.injectEndpoints({
  endpoints: (build) => ({
    editUser: build.mutation<AdminUser, { id: string; user: EditUserInput }>({
      query: ({ id, user }) => ({
        path: `/admin/edit-user/${encodeURIComponent(id)}`,
        body: user,
        auth: 'admin',
        schema: adminUserResponse,
      }),
      transformResponse: (response: z.infer<typeof adminUserResponse>) => response.data.user,
      onQueryStarted: onSuccess(userSaved),
    }),
  }),
});

export const { useEditUserMutation } = editUserApi;
