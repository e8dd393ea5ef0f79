import { type AddUserInput, type AdminUser, adminUserResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** POST /admin/add-user: a new account with the role the admin chose. */
export const addUser = async (user: AddUserInput): Promise<AdminUser> =>
  (await apiRequest('/admin/add-user', { body: user, auth: 'admin', schema: adminUserResponse })).data.user;
