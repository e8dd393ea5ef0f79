import { type AlertRecord, contracts } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';

/** `contracts.alert.latest` in the store: the user's `count` newest alerts (Recent Alerts). */
export const latestAlertsApi = api.injectEndpoints({
  endpoints: (build) => ({
    latestAlerts: build.query<AlertRecord[], number>({
      ...fromContract(
        contracts.alert.latest,
        (count: number) => ({ params: { count } }),
        (response) => response.data.alerts,
      ),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useLatestAlertsQuery } = latestAlertsApi;
