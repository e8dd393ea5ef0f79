import { type SnoozeRecord, snoozesResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** POST /alert/snoozes: the caller's snoozes still running, soonest to end first. */
export const getSnoozes = async (): Promise<SnoozeRecord[]> =>
  (await apiRequest('/alert/snoozes', { schema: snoozesResponse })).data.snoozes;

/** POST /alert/unsnooze: end one snooze now; answers those left. */
export const endSnooze = async (s: Pick<SnoozeRecord, 'device' | 'alertType'>): Promise<SnoozeRecord[]> =>
  (
    await apiRequest('/alert/unsnooze', {
      body: { deviceId: s.device, alertType: s.alertType },
      schema: snoozesResponse,
    })
  ).data.snoozes;
