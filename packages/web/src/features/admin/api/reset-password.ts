import { messageOnly } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';

/** POST /admin/reset-password/:id: sets a new password and ends the user's sessions. */
export const resetPasswordApi = api.injectEndpoints({
  endpoints: (build) => ({
    resetPassword: build.mutation<unknown, { id: string; newPassword: string }>({
      query: ({ id, newPassword }) => ({
        path: `/admin/reset-password/${encodeURIComponent(id)}`,
        body: { newPassword },
        auth: 'admin',
        schema: messageOnly,
      }),
    }),
  }),
});

export const { useResetPasswordMutation } = resetPasswordApi;
