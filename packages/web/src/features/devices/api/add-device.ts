import { type UserDevice, userDeviceResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

export interface AddDeviceInput {
  activationCode: string;
  deviceName: string;
}

/** POST /device/add-device: assigns the device with this activation code to the user and names it. */
export const addDevice = async (input: AddDeviceInput): Promise<UserDevice> =>
  (await apiRequest('/device/add-device', { body: { data: input }, schema: userDeviceResponse })).data.device;
