import { type AlertTimelineEntry, alertTimelineResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api } from '@/lib/store/api.ts';

/**
 * POST /alert/timeline/:id in the store: raised, notified (channel, delivered or not), escalated,
 * acknowledged, resolved. Fetched afresh each time the alert's details open.
 */
export const alertTimelineApi = api.injectEndpoints({
  endpoints: (build) => ({
    alertTimeline: build.query<AlertTimelineEntry[], string>({
      query: (alertId) => ({
        path: `/alert/timeline/${encodeURIComponent(alertId)}`,
        schema: alertTimelineResponse,
      }),
      transformResponse: (response: z.infer<typeof alertTimelineResponse>) => response.data.timeline,
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useAlertTimelineQuery } = alertTimelineApi;
