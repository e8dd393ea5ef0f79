import { type CareCircle, contracts } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';

/** `contracts.adminCircle.list`: any device's care circle, as an admin sees it. */
export const deviceCircleApi = api.injectEndpoints({
  endpoints: (build) => ({
    adminDeviceCircle: build.query<CareCircle, string>({
      ...fromContract(
        contracts.adminCircle.list,
        (deviceId: string) => ({ params: { deviceId } }),
        (response) => response.data.circle,
      ),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useAdminDeviceCircleQuery } = deviceCircleApi;
