import { type AlertAllBody, type ContractResponse, contracts } from '@vitalwatch/shared';
import { callContract } from '@/lib/call-contract.ts';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';

/** The filters of Alerts History as the server takes them. */
export interface AlertQuery {
  deviceId?: string;
  from?: string;
  to?: string;
  /** Newest first (default) or by priority, then newest first. */
  sort?: 'recent' | 'priority';
}

export type AlertsPage = ContractResponse<typeof contracts.alert.page>['data'];

/** The body of `contracts.alert.page`: filters, a keyset cursor, a page size. */
export type AlertsPageBody = NonNullable<AlertAllBody>;

/** `contracts.alert.page` from the store's argument: one page, with the totals of the whole filtered list. */
export const alertsPageQuery = fromContract(
  contracts.alert.page,
  (body: AlertsPageBody) => ({ body }),
  (response): AlertsPage => response.data,
);

/** One page, called outside the store (a step of 'Mark all as read'). */
export const getAlertsPage = async (body: AlertsPageBody): Promise<AlertsPage> =>
  (await callContract(contracts.alert.page, { body })).data;

export const alertsPageApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** One page fetched as a step of something else (catching up after a reconnect), not kept. */
    alertsPage: build.query<AlertsPage, AlertsPageBody>({ ...alertsPageQuery, keepUnusedDataFor: 0 }),
  }),
});

/** Fetches one page now (a thunk: `await dispatch(fetchAlertsPage(body)).unwrap()`). */
export const fetchAlertsPage = (body: AlertsPageBody) =>
  alertsPageApi.endpoints.alertsPage.initiate(body, { subscribe: false, forceRefetch: true });
