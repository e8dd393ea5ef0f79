import { contracts, type Gateway } from '@vitalwatch/shared';
import { api, onSuccess } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';
import { gatewaysApi } from './get-gateways.ts';

interface RevokeArgs {
  deviceId: string;
  gatewayId: string;
}

/** `contracts.gateway.revoke`: that browser's key stops working; the device's gateways come back. */
export const revokeGatewayApi = api.injectEndpoints({
  endpoints: (build) => ({
    revokeGateway: build.mutation<Gateway[], RevokeArgs>({
      ...fromContract(
        contracts.gateway.revoke,
        (body: RevokeArgs) => ({ body }),
        (response) => response.data.gateways,
      ),
      onQueryStarted: onSuccess((gateways: Gateway[], { deviceId }: RevokeArgs) =>
        gatewaysApi.util.updateQueryData('gateways', deviceId, () => gateways),
      ),
    }),
  }),
});

export const { useRevokeGatewayMutation } = revokeGatewayApi;
