import {
  ALARM_MESSAGES,
  addUserDeviceBody,
  alarmSettingsParams,
  alarmSettingsResponse,
  DEVICE_MESSAGES,
  deviceDetailsBody,
  updateAlarmSettingsBody,
  updateUserDeviceBody,
  userDeviceResponse,
  userDevicesResponse,
} from '@vitalwatch/shared';
import { addressKey } from '../../auth/address-key.ts';
import { caller } from '../../auth/plugin.ts';
import type { AppContext, AppInstance } from '../../context.ts';
import { isDomainError } from '../../errors.ts';

/**
 * `/api/v1/device/*`: a user's own devices. Admins are not assigned devices, so they get 403, but
 * for the alarm settings, which admins and the device's users may read, and admins and the
 * device's owner change (anyone else: 403).
 */
export async function deviceRoutes(app: AppInstance, ctx: AppContext) {
  const { devices } = ctx;
  const onRequest = ctx.guards.requireRole('user');

  app.post(
    '/get-device',
    { onRequest, schema: { response: { 200: userDevicesResponse } } },
    async (request) => ({
      success: true as const,
      message: DEVICE_MESSAGES.fetched,
      data: { devices: await devices.listForUser(caller(request).userId) },
    }),
  );

  app.post(
    '/add-device',
    { onRequest, schema: { body: addUserDeviceBody, response: { 200: userDeviceResponse } } },
    async (request) => {
      const { activationCode, deviceName } = request.body.data;
      const who = { userId: caller(request).userId, address: addressKey(request.ip) };
      const device = await devices
        .addByActivationCode(who, activationCode, deviceName)
        .catch(async (err: unknown) => {
          // Every refusal, a code that matches nothing above all: guessing shows in the audit log.
          if (isDomainError(err)) {
            await ctx.audit.record(request, {
              action: 'device-assign',
              outcome: 'failure',
              detail: { by: 'activation code', reason: err.message },
            });
          }
          throw err;
        });
      await ctx.audit.record(request, {
        action: 'device-assign',
        targetType: 'device',
        targetId: device._id,
        detail: { by: 'activation code' },
      });
      return { success: true as const, message: DEVICE_MESSAGES.added, data: { device } };
    },
  );

  app.post(
    '/update-device',
    { onRequest, schema: { body: updateUserDeviceBody, response: { 200: userDeviceResponse } } },
    async (request) => {
      const { deviceId, newName, scope } = request.body.data;
      const renamed = await devices.rename(caller(request).userId, deviceId, newName, scope);
      const { device, previousName } = renamed;
      if (previousName !== device.deviceName) {
        await ctx.audit.record(request, {
          action: 'device-rename',
          targetType: 'device',
          targetId: device._id,
          // A nickname is the renamer's own: said so beside the names.
          detail: {
            from: previousName,
            to: device.deviceName,
            ...(renamed.scope === 'personal' ? { seenBy: 'only them' } : {}),
          },
        });
      }
      return { success: true as const, message: DEVICE_MESSAGES.renamed, data: { device } };
    },
  );

  app.post(
    '/device-details',
    { onRequest, schema: { body: deviceDetailsBody, response: { 200: userDeviceResponse } } },
    async (request) => ({
      success: true as const,
      message: DEVICE_MESSAGES.details,
      data: { device: await devices.details(caller(request).userId, request.body.data.deviceId) },
    }),
  );

  const anyone = ctx.guards.requireAuth;
  app.post(
    '/alarm-settings/:deviceId',
    { onRequest: anyone, schema: { params: alarmSettingsParams, response: { 200: alarmSettingsResponse } } },
    async (request) => ({
      success: true as const,
      message: ALARM_MESSAGES.fetched,
      data: await devices.alarmSettings(caller(request), request.params.deviceId),
    }),
  );

  app.post(
    '/update-alarm-settings/:deviceId',
    {
      onRequest: anyone,
      schema: {
        params: alarmSettingsParams,
        body: updateAlarmSettingsBody,
        response: { 200: alarmSettingsResponse },
      },
    },
    async (request) => {
      const { deviceId } = request.params;
      const { now, changes } = await devices.updateAlarmSettings(
        caller(request),
        deviceId,
        request.body.settings,
      );
      if (Object.keys(changes).length > 0) {
        await ctx.audit.record(request, {
          action: 'alarm-settings-change',
          targetType: 'device',
          targetId: deviceId,
          detail: changes,
        });
      }
      return { success: true as const, message: ALARM_MESSAGES.updated, data: now };
    },
  );
}
