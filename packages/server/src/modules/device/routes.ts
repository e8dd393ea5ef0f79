import { CIRCLE_MESSAGES, contracts } from '@vitalwatch/shared';
import { addressKey } from '../../auth/address-key.ts';
import { caller } from '../../auth/plugin.ts';
import type { AppContext, AppInstance } from '../../context.ts';
import { forbidden, isDomainError } from '../../errors.ts';
import { serveContracts, userAuthHooks } from '../../http/contract-routes.ts';

/** `contracts.device`: a user's own devices and the alarm settings of any device they may see. */
export async function deviceRoutes(app: AppInstance, ctx: AppContext) {
  const { devices } = ctx;

  serveContracts(app, userAuthHooks(ctx.guards), contracts.device, {
    list: async (request) => ({ devices: await devices.listForUser(caller(request).userId) }),

    add: async (request) => {
      const { activationCode, deviceName } = request.body.data;
      const who = { userId: caller(request).userId, address: addressKey(request.ip) };
      const added = await devices
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
      if ('pending' in added) {
        const { deviceId, firstTime } = added.pending;
        if (firstTime) await ctx.circles.askOwnersToConfirm(deviceId, who.userId);
        await ctx.audit.record(request, {
          action: 'device-assign',
          outcome: 'failure',
          targetType: 'device',
          targetId: deviceId,
          detail: { by: 'activation code', reason: CIRCLE_MESSAGES.pendingConfirmation },
        });
        throw forbidden(CIRCLE_MESSAGES.pendingConfirmation);
      }
      const { device } = added;
      await ctx.audit.record(request, {
        action: 'device-assign',
        targetType: 'device',
        targetId: device._id,
        detail: { by: 'activation code' },
      });
      return { device };
    },

    rename: async (request) => {
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
      return { device };
    },

    details: async (request) => ({
      device: await devices.details(caller(request).userId, request.body.data.deviceId),
    }),

    getAlarmSettings: async (request) => devices.alarmSettings(caller(request), request.params.deviceId),

    updateAlarmSettings: async (request) => {
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
      return now;
    },
  });
}
