import { type AlertRecord, alertsResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api } from '@/lib/store/api.ts';

/** POST /alert/latest/:count in the store: the user's `count` newest alerts (Recent Alerts). */
export const latestAlertsApi = api.injectEndpoints({
  endpoints: (build) => ({
    latestAlerts: build.query<AlertRecord[], number>({
      query: (count) => ({ path: `/alert/latest/${count}`, schema: alertsResponse }),
      transformResponse: (response: z.infer<typeof alertsResponse>) => response.data.alerts,
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useLatestAlertsQuery } = latestAlertsApi;
