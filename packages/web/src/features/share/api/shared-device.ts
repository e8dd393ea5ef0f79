import { healthHistoryResponse, sharedDeviceResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** GET /shared/:token, without an account: the device's name, until when, its newest reading. */
export const getSharedDevice = async (token: string) =>
  (
    await apiRequest(`/shared/${encodeURIComponent(token)}`, {
      method: 'GET',
      auth: 'none',
      schema: sharedDeviceResponse,
    })
  ).data;

/** POST /shared/:token/history: the last `hours` of readings, for the shared page's averages. */
export const getSharedHistory = async (token: string, hours: number) => {
  const to = new Date();
  const from = new Date(to.getTime() - hours * 3_600_000);
  return (
    await apiRequest(`/shared/${encodeURIComponent(token)}/history`, {
      body: { from: from.toISOString(), to: to.toISOString(), points: 48 },
      auth: 'none',
      schema: healthHistoryResponse,
    })
  ).data;
};
