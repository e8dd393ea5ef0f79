import { type AlertAllBody, alertsPageResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { type ApiCall, api } from '@/lib/store/api.ts';

/** The filters of Alerts History as the server takes them. */
export interface AlertQuery {
  deviceId?: string;
  from?: string;
  to?: string;
  /** Newest first (default) or by priority, then newest first. */
  sort?: 'recent' | 'priority';
}

export type AlertsPage = z.infer<typeof alertsPageResponse>['data'];

/** The body of POST /alert/all: filters, a keyset cursor, a page size. */
export type AlertsPageBody = NonNullable<AlertAllBody>;

/** POST /alert/all as an API call: one page of alerts, with the totals of the whole filtered list. */
export const alertsPageCall = (body: AlertsPageBody): ApiCall<z.infer<typeof alertsPageResponse>> => ({
  path: '/alert/all',
  body,
  schema: alertsPageResponse,
});

export const alertsPageApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** One page fetched as a step of something else (catching up after a reconnect), not kept. */
    alertsPage: build.query<AlertsPage, AlertsPageBody>({
      query: alertsPageCall,
      transformResponse: (response: z.infer<typeof alertsPageResponse>) => response.data,
      keepUnusedDataFor: 0,
    }),
  }),
});

/** Fetches one page now (a thunk: `await dispatch(fetchAlertsPage(body)).unwrap()`). */
export const fetchAlertsPage = (body: AlertsPageBody) =>
  alertsPageApi.endpoints.alertsPage.initiate(body, { subscribe: false, forceRefetch: true });
