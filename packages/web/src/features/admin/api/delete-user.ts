import { messageOnly } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** POST /admin/delete-user/:id: removes the account, its sessions, browsers and device assignments. */
export const deleteUser = async (id: string): Promise<void> => {
  await apiRequest(`/admin/delete-user/${encodeURIComponent(id)}`, { auth: 'admin', schema: messageOnly });
};
