import { ALERTS_PAGE_MAX_LIMIT, type AlertRecord, contracts } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';
import { mergeNewest } from '../utils/merge-alerts.ts';

/** What the urgent banner shows: high priority and still active (nobody has acknowledged it). */
export const isUrgent = (a: Pick<AlertRecord, 'priority' | 'status'>) =>
  a.priority === 'high' && a.status === 'active';

/**
 * `contracts.alert.page` `{status: active, priority: high}` in the store: the active high-priority alerts
 * of the user's devices, newest arrival first (as live ones join: a late SOS is on top).
 */
export const urgentAlertsApi = api.injectEndpoints({
  endpoints: (build) => ({
    urgentAlerts: build.query<AlertRecord[], void>({
      ...fromContract(
        contracts.alert.page,
        () => ({
          body: { status: 'active' as const, priority: 'high' as const, limit: ALERTS_PAGE_MAX_LIMIT },
        }),
        (response) => mergeNewest([], response.data.alerts, false, 'receivedAt'),
      ),
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
