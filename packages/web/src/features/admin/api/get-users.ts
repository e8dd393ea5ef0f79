import { type AdminUser, adminUsersResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** POST /admin/all-users: everyone, or with `isUser` only role user (who can be given devices). */
export const getUsers = async (isUser: boolean): Promise<AdminUser[]> =>
  (await apiRequest('/admin/all-users', { body: { isUser }, auth: 'admin', schema: adminUsersResponse })).data
    .users;
