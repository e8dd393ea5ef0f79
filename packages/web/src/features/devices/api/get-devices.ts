import { type UserDevice, userDevicesResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** POST /device/get-device: the devices assigned to the signed-in user. */
export const getDevices = async (): Promise<UserDevice[]> =>
  (await apiRequest('/device/get-device', { schema: userDevicesResponse })).data.devices;
