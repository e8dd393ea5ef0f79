import { type AdminDeviceLatest, contracts } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';

/** `contracts.deviceSetup.latest`: the device's newest reading (or null) and where MQTT listens. */
export const deviceLatestApi = api.injectEndpoints({
  endpoints: (build) => ({
    adminDeviceLatest: build.query<AdminDeviceLatest, string>({
      ...fromContract(
        contracts.deviceSetup.latest,
        (id: string) => ({ params: { id } }),
        (response) => response.data,
      ),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useAdminDeviceLatestQuery } = deviceLatestApi;
