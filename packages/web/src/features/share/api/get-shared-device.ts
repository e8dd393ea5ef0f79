import { contracts, type SharedDevice } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';

/** `contracts.shared.device` in the store, without an account: the device's name, until when, its newest reading. */
export const sharedDeviceApi = api.injectEndpoints({
  endpoints: (build) => ({
    sharedDevice: build.query<SharedDevice, string>({
      ...fromContract(
        contracts.shared.device,
        (token: string) => ({ params: { token } }),
        (response) => response.data,
      ),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useSharedDeviceQuery } = sharedDeviceApi;
