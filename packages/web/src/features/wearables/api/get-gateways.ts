import { contracts, type Gateway } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';

/** `contracts.gateway.list` in the store: the browsers that forward a device's wearables. */
export const gatewaysApi = api.injectEndpoints({
  endpoints: (build) => ({
    gateways: build.query<Gateway[], string>({
      ...fromContract(
        contracts.gateway.list,
        (deviceId: string) => ({ body: { deviceId } }),
        (response) => response.data.gateways,
      ),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useGatewaysQuery } = gatewaysApi;
