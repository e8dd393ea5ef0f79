import { type AlarmSettings, alarmSettingsResponse } from '@vitalwatch/shared';
import { apiRequest } from './api-client.ts';

export interface AlarmSettingsView {
  settings: AlarmSettings;
  defaults: AlarmSettings;
  /** Whether the caller may change them (the device's owner, or an admin). */
  canChange: boolean;
}

/** POST /device/alarm-settings/:id: the device's alarm conditions and escalation timings, and the defaults. */
export const getAlarmSettings = async (deviceId: string, signal?: AbortSignal): Promise<AlarmSettingsView> =>
  (
    await apiRequest(`/device/alarm-settings/${encodeURIComponent(deviceId)}`, {
      schema: alarmSettingsResponse,
      signal,
    })
  ).data;

/** POST /device/update-alarm-settings/:id: within the shared safe bounds, else 400 with per-field issues. */
export const updateAlarmSettings = async (
  deviceId: string,
  settings: AlarmSettings,
): Promise<AlarmSettingsView> =>
  (
    await apiRequest(`/device/update-alarm-settings/${encodeURIComponent(deviceId)}`, {
      body: { settings },
      schema: alarmSettingsResponse,
    })
  ).data;
