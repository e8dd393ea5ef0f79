import { type AlarmSettings, contracts } from '@vitalwatch/shared';
import { callContract } from './call-contract.ts';

export interface AlarmSettingsView {
  settings: AlarmSettings;
  defaults: AlarmSettings;
  /** Whether the caller may change them (the device's owner, or an admin). */
  canChange: boolean;
}

/** `contracts.device.getAlarmSettings`: the device's alarm conditions and escalation timings, and the defaults. */
export const getAlarmSettings = async (deviceId: string, signal?: AbortSignal): Promise<AlarmSettingsView> =>
  (await callContract(contracts.device.getAlarmSettings, { params: { deviceId } }, { signal })).data;

/** `contracts.device.updateAlarmSettings`: within the shared safe bounds, else 400 with per-field issues. */
export const updateAlarmSettings = async (
  deviceId: string,
  settings: AlarmSettings,
): Promise<AlarmSettingsView> =>
  (await callContract(contracts.device.updateAlarmSettings, { params: { deviceId }, body: { settings } }))
    .data;
