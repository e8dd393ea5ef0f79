import { ALERTS_PAGE_MAX_LIMIT, type AlertRecord, alertsPageResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api } from '@/lib/store/api.ts';
import { mergeNewest } from '../utils/merge-alerts.ts';

/** What the urgent banner shows: high priority and still active (nobody has acknowledged it). */
export const isUrgent = (a: Pick<AlertRecord, 'priority' | 'status'>) =>
  a.priority === 'high' && a.status === 'active';

/**
 * POST /alert/all `{status: active, priority: high}` in the store: the active high-priority alerts
 * of the user's devices, newest arrival first (as live ones join: a late SOS is on top).
 */
export const urgentAlertsApi = api.injectEndpoints({
  endpoints: (build) => ({
    urgentAlerts: build.query<AlertRecord[], void>({
      query: () => ({
        path: '/alert/all',
        body: { status: 'active', priority: 'high', limit: ALERTS_PAGE_MAX_LIMIT },
        schema: alertsPageResponse,
      }),
      transformResponse: (response: z.infer<typeof alertsPageResponse>) =>
        mergeNewest([], response.data.alerts, false, 'receivedAt'),
      keepUnusedDataFor: 0,
      // The banner keeps what it has; the next reconnect tries again.
      onQueryStarted: async (_arg, { queryFulfilled }) => {
        await queryFulfilled.catch((failure: unknown) =>
          console.warn('Could not fetch urgent alerts', failure),
        );
      },
    }),
  }),
});

export const { useUrgentAlertsQuery } = urgentAlertsApi;
