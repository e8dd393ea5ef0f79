import { type AdminDevice, adminDeviceResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

export interface DeviceInput {
  deviceName: string;
  isValid: boolean;
  /** Ids of the users the device is assigned to. */
  users: string[];
  /** Those of `users` notified only when a high-priority alert is not acknowledged in time. */
  backupUsers: string[];
}

/** POST /admin/add-device: a new device with fresh activation and API auth codes. */
export const addDevice = async (device: DeviceInput): Promise<AdminDevice> =>
  (await apiRequest('/admin/add-device', { body: device, auth: 'admin', schema: adminDeviceResponse })).data
    .device;
