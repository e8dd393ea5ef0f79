import { messageOnly } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** POST /admin/delete-device/:id: removes the device with its readings and alerts. */
export const deleteDevice = async (id: string): Promise<void> => {
  await apiRequest(`/admin/delete-device/${encodeURIComponent(id)}`, { auth: 'admin', schema: messageOnly });
};
