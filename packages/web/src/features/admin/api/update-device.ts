import { type AdminDevice, adminDeviceResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api, onSuccess } from '@/lib/store/api.ts';
import type { DeviceInput } from './add-device.ts';
import { deviceSaved } from './get-devices.ts';

/** POST /admin/update-device/:id: name, validity and assigned users. */
export const updateDeviceApi = api.injectEndpoints({
  endpoints: (build) => ({
    updateDevice: build.mutation<AdminDevice, { id: string; device: DeviceInput }>({
      query: ({ id, device }) => ({
        path: `/admin/update-device/${encodeURIComponent(id)}`,
        body: device,
        auth: 'admin',
        schema: adminDeviceResponse,
      }),
      transformResponse: (response: z.infer<typeof adminDeviceResponse>) => response.data.device,
      onQueryStarted: onSuccess(deviceSaved),
    }),
  }),
});

export const { useUpdateDeviceMutation } = updateDeviceApi;
