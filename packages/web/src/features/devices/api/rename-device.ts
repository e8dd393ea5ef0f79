import { type UserDevice, userDeviceResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** POST /device/update-device: gives one of the user's devices a new name. */
export const renameDevice = async (deviceId: string, newName: string): Promise<UserDevice> =>
  (
    await apiRequest('/device/update-device', {
      body: { data: { deviceId, newName } },
      schema: userDeviceResponse,
    })
  ).data.device;
