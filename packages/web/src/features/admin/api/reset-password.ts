import { contracts } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { callOf } from '@/lib/store/contract-query.ts';

/** `contracts.admin.resetPassword`: sets a new password and ends the user's sessions. */
export const resetPasswordApi = api.injectEndpoints({
  endpoints: (build) => ({
    resetPassword: build.mutation<unknown, { id: string; newPassword: string }>({
      query: ({ id, newPassword }) =>
        callOf(contracts.admin.resetPassword, { params: { id }, body: { newPassword } }),
    }),
  }),
});

export const { useResetPasswordMutation } = resetPasswordApi;
