import { contracts, type HealthHistory } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';

export interface HistoryArgs {
  deviceId: string;
  from: string;
  to: string;
  points: number;
}

/** `contracts.health.history` in the store: one cache entry per device and window. */
export const healthHistoryApi = api.injectEndpoints({
  endpoints: (build) => ({
    healthHistory: build.query<HealthHistory, HistoryArgs>({
      ...fromContract(
        contracts.health.history,
        ({ deviceId, ...body }: HistoryArgs) => ({ params: { deviceId }, body }),
        (response) => response.data,
      ),
    }),
  }),
});

export const { useHealthHistoryQuery, useLazyHealthHistoryQuery } = healthHistoryApi;
