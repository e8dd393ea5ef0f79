import { type AlertRecord, alertsResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** POST /alert/latest/:count: the user's `count` newest alerts. */
export const getLatestAlerts = async (count: number): Promise<AlertRecord[]> =>
  (await apiRequest(`/alert/latest/${count}`, { schema: alertsResponse })).data.alerts;
