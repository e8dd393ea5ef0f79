import { messageOnly } from '@vitalwatch/shared';
import { api, onSuccess } from '@/lib/store/api.ts';
import { deviceRemoved } from './get-devices.ts';

/** POST /admin/delete-device/:id: removes the device with its readings and alerts. */
export const deleteDeviceApi = api.injectEndpoints({
  endpoints: (build) => ({
    deleteDevice: build.mutation<unknown, string>({
      query: (id) => ({
        path: `/admin/delete-device/${encodeURIComponent(id)}`,
        auth: 'admin',
        schema: messageOnly,
      }),
      onQueryStarted: onSuccess(deviceRemoved),
    }),
  }),
});

export const { useDeleteDeviceMutation } = deleteDeviceApi;
