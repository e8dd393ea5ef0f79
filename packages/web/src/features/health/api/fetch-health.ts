import { type HealthFetchBody, type HealthRecord, healthFetchResponse } from '@vitalwatch/shared';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST /health/fetch/:deviceId: readings of one device, newest first, optionally within [from, to]. */
export const fetchHealth = async (
  deviceId: string,
  body: NonNullable<HealthFetchBody> = {},
  signal?: AbortSignal,
): Promise<HealthRecord[]> =>
  (
    await apiRequest(`/health/fetch/${encodeURIComponent(deviceId)}`, {
      body,
      schema: healthFetchResponse,
      signal,
    })
  ).data.healthData;
