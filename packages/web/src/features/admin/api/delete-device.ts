import { contracts } from '@vitalwatch/shared';
import { api, onSuccess } from '@/lib/store/api.ts';
import { callOf } from '@/lib/store/contract-query.ts';
import { deviceRemoved } from './get-devices.ts';

/** `contracts.adminDevice.delete`: removes the device with its readings and alerts. */
export const deleteDeviceApi = api.injectEndpoints({
  endpoints: (build) => ({
    deleteDevice: build.mutation<unknown, string>({
      query: (id) => callOf(contracts.adminDevice.delete, { params: { id } }),
      onQueryStarted: onSuccess(deviceRemoved),
    }),
  }),
});

export const { useDeleteDeviceMutation } = deleteDeviceApi;
