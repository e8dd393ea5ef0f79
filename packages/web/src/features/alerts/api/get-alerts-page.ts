import { type AlertAllBody, alertsPageResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api-client.ts';

/** The filters of Alerts History as the server takes them. */
export interface AlertQuery {
  deviceId?: string;
  from?: string;
  to?: string;
  /** Newest first (default) or by priority, then newest first. */
  sort?: 'recent' | 'priority';
}

export type AlertsPage = z.infer<typeof alertsPageResponse>['data'];

/** POST /alert/all: one page of alerts, newest first, with the totals of the whole filtered list. */
export const getAlertsPage = async (
  body: NonNullable<AlertAllBody>,
  signal?: AbortSignal,
): Promise<AlertsPage> => (await apiRequest('/alert/all', { body, schema: alertsPageResponse, signal })).data;
