import { type AdminDevice, contracts } from '@vitalwatch/shared';
import { api, onSuccess } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';
import { deviceSaved } from './get-devices.ts';

export interface DeviceInput {
  deviceName: string;
  isValid: boolean;
  /** Ids of the users the device is assigned to. */
  users: string[];
  /** Those of `users` notified only when a high-priority alert is not acknowledged in time. */
  backupUsers: string[];
}

/** `contracts.adminDevice.add`: a new device with fresh activation and API auth codes. */
export const addDeviceApi = api.injectEndpoints({
  endpoints: (build) => ({
    addAdminDevice: build.mutation<AdminDevice, DeviceInput>({
      ...fromContract(
        contracts.adminDevice.add,
        (body: DeviceInput) => ({ body }),
        (response) => response.data.device,
      ),
      onQueryStarted: onSuccess(deviceSaved),
    }),
  }),
});

export const { useAddAdminDeviceMutation } = addDeviceApi;
