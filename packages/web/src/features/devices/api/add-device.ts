import { contracts, type UserDevice } from '@vitalwatch/shared';
import { api, onSuccess } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';
import { deviceSaved } from './get-devices.ts';

export interface AddDeviceInput {
  activationCode: string;
  deviceName: string;
}

/** `contracts.device.add`: assigns the device with this activation code to the user and names it. */
export const addDeviceApi = api.injectEndpoints({
  endpoints: (build) => ({
    addDevice: build.mutation<UserDevice, AddDeviceInput>({
      ...fromContract(
        contracts.device.add,
        (data: AddDeviceInput) => ({ body: { data } }),
        (response) => response.data.device,
      ),
      onQueryStarted: onSuccess(deviceSaved),
    }),
  }),
});

export const { useAddDeviceMutation } = addDeviceApi;
