import { type AdminDevice, contracts } from '@vitalwatch/shared';
import { api, onSuccess } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';
import type { DeviceInput } from './add-device.ts';
import { deviceSaved } from './get-devices.ts';

/** `contracts.adminDevice.update`: name, validity and assigned users. */
export const updateDeviceApi = api.injectEndpoints({
  endpoints: (build) => ({
    updateDevice: build.mutation<AdminDevice, { id: string; device: DeviceInput }>({
      ...fromContract(
        contracts.adminDevice.update,
        ({ id, device }: { id: string; device: DeviceInput }) => ({ params: { id }, body: device }),
        (response) => response.data.device,
      ),
      onQueryStarted: onSuccess(deviceSaved),
    }),
  }),
});

export const { useUpdateDeviceMutation } = updateDeviceApi;
