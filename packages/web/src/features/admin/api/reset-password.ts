import { messageOnly } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** POST /admin/reset-password/:id: sets a new password and ends the user's sessions. */
export const resetPassword = async (id: string, newPassword: string): Promise<void> => {
  await apiRequest(`/admin/reset-password/${encodeURIComponent(id)}`, {
    body: { newPassword },
    auth: 'admin',
    schema: messageOnly,
  });
};
