import { type AdminDevice, adminDeviceResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** POST /admin/change-validity/:id: an inactive device can neither ingest nor be added by a user. */
export const changeValidity = async (id: string, isValid: boolean): Promise<AdminDevice> =>
  (
    await apiRequest(`/admin/change-validity/${encodeURIComponent(id)}`, {
      body: { isValid },
      auth: 'admin',
      schema: adminDeviceResponse,
    })
  ).data.device;
