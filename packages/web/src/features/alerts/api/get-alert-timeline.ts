import { type AlertTimelineEntry, alertTimelineResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** POST /alert/timeline/:id: raised, notified (channel, delivered or not), escalated, acknowledged, resolved. */
export const getAlertTimeline = async (
  alertId: string,
  signal?: AbortSignal,
): Promise<AlertTimelineEntry[]> =>
  (
    await apiRequest(`/alert/timeline/${encodeURIComponent(alertId)}`, {
      schema: alertTimelineResponse,
      signal,
    })
  ).data.timeline;
