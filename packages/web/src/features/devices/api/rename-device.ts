import { type UserDevice, userDeviceResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api, onSuccess } from '@/lib/store/api.ts';
import { deviceSaved } from './get-devices.ts';

interface RenameArgs {
  deviceId: string;
  newName: string;
  /** `personal`: the caller's own name for it; `shared`: everyone's (its owner only). */
  scope: 'personal' | 'shared';
}

/** POST /device/update-device: gives one of the user's devices a new name, the caller's own or everyone's. */
export const renameDeviceApi = api.injectEndpoints({
  endpoints: (build) => ({
    renameDevice: build.mutation<UserDevice, RenameArgs>({
      query: (data) => ({ path: '/device/update-device', body: { data }, schema: userDeviceResponse }),
      transformResponse: (response: z.infer<typeof userDeviceResponse>) => response.data.device,
      onQueryStarted: onSuccess(deviceSaved),
    }),
  }),
});

export const { useRenameDeviceMutation } = renameDeviceApi;
