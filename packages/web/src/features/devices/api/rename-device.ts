import { contracts, type UserDevice } from '@vitalwatch/shared';
import { api, onSuccess } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';
import { deviceSaved } from './get-devices.ts';

interface RenameArgs {
  deviceId: string;
  newName: string;
  /** `personal`: the caller's own name for it; `shared`: everyone's (its owner only). */
  scope: 'personal' | 'shared';
}

/** `contracts.device.rename`: gives one of the user's devices a new name, the caller's own or everyone's. */
export const renameDeviceApi = api.injectEndpoints({
  endpoints: (build) => ({
    renameDevice: build.mutation<UserDevice, RenameArgs>({
      ...fromContract(
        contracts.device.rename,
        (data: RenameArgs) => ({ body: { data } }),
        (response) => response.data.device,
      ),
      onQueryStarted: onSuccess(deviceSaved),
    }),
  }),
});

export const { useRenameDeviceMutation } = renameDeviceApi;
