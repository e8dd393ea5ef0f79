import { type AdminUser, adminUserResponse, type EditUserInput } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** POST /admin/edit-user/:id: name, username, email and role. */
export const editUser = async (id: string, user: EditUserInput): Promise<AdminUser> =>
  (
    await apiRequest(`/admin/edit-user/${encodeURIComponent(id)}`, {
      body: user,
      auth: 'admin',
      schema: adminUserResponse,
    })
  ).data.user;
