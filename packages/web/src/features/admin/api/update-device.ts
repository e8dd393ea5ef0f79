import { type AdminDevice, adminDeviceResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';
import type { DeviceInput } from './add-device.ts';

/** POST /admin/update-device/:id: name, validity and assigned users. */
export const updateDevice = async (id: string, device: DeviceInput): Promise<AdminDevice> =>
  (
    await apiRequest(`/admin/update-device/${encodeURIComponent(id)}`, {
      body: device,
      auth: 'admin',
      schema: adminDeviceResponse,
    })
  ).data.device;
