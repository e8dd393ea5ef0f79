import { type AdminDevice, adminDevicesResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** POST /admin/all-devices: every device with its assigned user ids and codes. */
export const getDevices = async (): Promise<AdminDevice[]> =>
  (await apiRequest('/admin/all-devices', { auth: 'admin', schema: adminDevicesResponse })).data.devices;
