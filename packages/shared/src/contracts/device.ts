import {
  ALARM_MESSAGES,
  alarmSettingsParams,
  alarmSettingsResponse,
  updateAlarmSettingsBody,
} from '../schemas/alarm-settings.ts';
import {
  addUserDeviceBody,
  DEVICE_MESSAGES,
  deviceDetailsBody,
  updateUserDeviceBody,
  userDeviceResponse,
  userDevicesResponse,
} from '../schemas/device.ts';
import { defineContracts, RECORD_ERRORS } from './contract.ts';

/**
 * `/api/v1/device/*`: a user's own devices. Admins are not assigned devices, so they get 403, but
 * for the alarm settings, which admins and the device's users may read, and admins and the
 * device's owner change (anyone else: 403).
 */
export const deviceContracts = defineContracts('/device', 'user', {
  list: {
    method: 'POST',
    path: '/get-device',
    summary: "The caller's devices",
    response: userDevicesResponse,
    message: DEVICE_MESSAGES.fetched,
  },
  add: {
    method: 'POST',
    path: '/add-device',
    summary: 'Add a device by its activation code',
    body: addUserDeviceBody,
    response: userDeviceResponse,
    message: DEVICE_MESSAGES.added,
    errors: [404, 409],
  },
  rename: {
    method: 'POST',
    path: '/update-device',
    summary: 'Rename a device or change its contacts',
    body: updateUserDeviceBody,
    response: userDeviceResponse,
    message: DEVICE_MESSAGES.renamed,
    errors: RECORD_ERRORS,
  },
  details: {
    method: 'POST',
    path: '/device-details',
    summary: 'One device',
    body: deviceDetailsBody,
    response: userDeviceResponse,
    message: DEVICE_MESSAGES.details,
    errors: RECORD_ERRORS,
  },
  getAlarmSettings: {
    method: 'POST',
    path: '/alarm-settings/:deviceId',
    auth: 'signed-in',
    summary: "A device's alarm limits",
    params: alarmSettingsParams,
    response: alarmSettingsResponse,
    message: ALARM_MESSAGES.fetched,
    errors: RECORD_ERRORS,
  },
  updateAlarmSettings: {
    method: 'POST',
    path: '/update-alarm-settings/:deviceId',
    auth: 'signed-in',
    summary: 'Change alarm limits',
    params: alarmSettingsParams,
    body: updateAlarmSettingsBody,
    response: alarmSettingsResponse,
    message: ALARM_MESSAGES.updated,
    errors: RECORD_ERRORS,
  },
});
