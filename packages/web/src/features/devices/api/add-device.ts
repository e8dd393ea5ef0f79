import { type UserDevice, userDeviceResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api, onSuccess } from '@/lib/store/api.ts';
import { deviceSaved } from './get-devices.ts';

export interface AddDeviceInput {
  activationCode: string;
  deviceName: string;
}

/** POST /device/add-device: assigns the device with this activation code to the user and names it. */
export const addDeviceApi = api.injectEndpoints({
  endpoints: (build) => ({
    addDevice: build.mutation<UserDevice, AddDeviceInput>({
      query: (input) => ({ path: '/device/add-device', body: { data: input }, schema: userDeviceResponse }),
      transformResponse: (response: z.infer<typeof userDeviceResponse>) => response.data.device,
      onQueryStarted: onSuccess(deviceSaved),
    }),
  }),
});

export const { useAddDeviceMutation } = addDeviceApi;
