import { type AdminDevice, adminDeviceResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api, onSuccess } from '@/lib/store/api.ts';
import { deviceSaved } from './get-devices.ts';

export interface DeviceInput {
  deviceName: string;
  isValid: boolean;
  /** Ids of the users the device is assigned to. */
  users: string[];
  /** Those of `users` notified only when a high-priority alert is not acknowledged in time. */
  backupUsers: string[];
}

/** POST /admin/add-device: a new device with fresh activation and API auth codes. */
export const addDeviceApi = api.injectEndpoints({
  endpoints: (build) => ({
    addAdminDevice: build.mutation<AdminDevice, DeviceInput>({
      query: (device) => ({
        path: '/admin/add-device',
        body: device,
        auth: 'admin',
        schema: adminDeviceResponse,
      }),
      transformResponse: (response: z.infer<typeof adminDeviceResponse>) => response.data.device,
      onQueryStarted: onSuccess(deviceSaved),
    }),
  }),
});

export const { useAddAdminDeviceMutation } = addDeviceApi;
