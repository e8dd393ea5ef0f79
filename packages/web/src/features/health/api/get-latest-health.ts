import { contracts, type HealthRecord } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';

/** `contracts.health.fetch` `{limit: 1}` in the store: a device's newest record, or null. */
export const latestHealthApi = api.injectEndpoints({
  endpoints: (build) => ({
    latestHealth: build.query<HealthRecord | null, string>({
      ...fromContract(
        contracts.health.fetch,
        (deviceId: string) => ({ params: { deviceId }, body: { limit: 1 } }),
        (response) => response.data.healthData[0] ?? null,
      ),
    }),
  }),
});

export const { useLatestHealthQuery } = latestHealthApi;
