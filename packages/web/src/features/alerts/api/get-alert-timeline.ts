import { type AlertTimelineEntry, contracts } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';

/**
 * `contracts.alert.timeline` in the store: raised, notified (channel, delivered or not), escalated,
 * acknowledged, resolved. Fetched afresh each time the alert's details open.
 */
export const alertTimelineApi = api.injectEndpoints({
  endpoints: (build) => ({
    alertTimeline: build.query<AlertTimelineEntry[], string>({
      ...fromContract(
        contracts.alert.timeline,
        (alertId: string) => ({ params: { alertId } }),
        (response) => response.data.timeline,
      ),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useAlertTimelineQuery } = alertTimelineApi;
