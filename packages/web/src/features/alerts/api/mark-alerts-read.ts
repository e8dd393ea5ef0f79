import { markReadResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** POST /alert/mark-read: marks these alerts read for the user; answers the ids it changed. */
export const markAlertsRead = async (ids: readonly string[]): Promise<string[]> =>
  (await apiRequest('/alert/mark-read', { body: { data: { alerts: ids } }, schema: markReadResponse })).data
    .alerts;
