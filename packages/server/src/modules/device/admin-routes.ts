import { CLAIM_PATH, contracts, DEVICE_MESSAGES } from '@vitalwatch/shared';
import type { AppContext, AppInstance } from '../../context.ts';
import { said, sendFile, serveContracts, userAuthHooks } from '../../http/contract-routes.ts';

/** `contracts.adminDevice`: admin device management, beside the admin user API under `/api/v1/admin`. */
export async function adminDeviceRoutes(app: AppInstance, ctx: AppContext) {
  const { devices } = ctx;
  serveContracts(app, userAuthHooks(ctx.guards), contracts.adminDevice, {
    devices: async () => ({ devices: await devices.listAll() }),

    // Admin → Devices → Print labels: a QR code per device that opens its claim link.
    labels: async (request, reply) => {
      const origin = ctx.config.publicUrl ?? `${request.protocol}://${request.host}`;
      // Loaded on the first print, as the report is (export/service.ts): PDFKit, its fonts and the
      // QR encoder are not loaded at start (lib/optional-packages.ts).
      const { deviceLabelsPdf } = await import('./labels-pdf.ts');
      const pdf = await deviceLabelsPdf(
        await devices.listAll(),
        (code) => `${origin}${CLAIM_PATH}/${encodeURIComponent(code)}`,
      );
      return sendFile(reply, 'application/pdf', 'vitalwatch-device-labels.pdf', pdf);
    },

    add: async (request) => {
      const device = await devices.create(request.body);
      await ctx.audit.record(request, {
        action: 'device-create',
        targetType: 'device',
        targetId: device._id,
        detail: { deviceName: device.deviceName, users: request.body.users.join(',') },
      });
      return { device };
    },

    update: async (request) => {
      const { device, previousName, assigned, unassigned } = await devices.update(
        request.params.id,
        request.body,
      );
      const { backupUsers, isValid } = request.body;
      const target = { targetType: 'device' as const, targetId: device._id };
      if (previousName !== device.deviceName) {
        await ctx.audit.record(request, {
          action: 'device-rename',
          ...target,
          detail: { from: previousName, to: device.deviceName },
        });
      }
      if (assigned.length > 0) {
        await ctx.audit.record(request, {
          action: 'device-assign',
          ...target,
          detail: { users: assigned.join(',') },
        });
      }
      if (unassigned.length > 0) {
        await ctx.audit.record(request, {
          action: 'device-unassign',
          ...target,
          detail: { users: unassigned.join(',') },
        });
      }
      if (backupUsers) {
        await ctx.audit.record(request, {
          action: 'device-backup-contacts',
          ...target,
          detail: { backupUsers: backupUsers.join(',') },
        });
      }
      if (isValid !== undefined) {
        await ctx.audit.record(request, { action: 'device-validity', ...target, detail: { isValid } });
      }
      return { device };
    },

    changeValidity: async (request) => {
      const device = await devices.changeValidity(request.params.id, request.body.isValid);
      await ctx.audit.record(request, {
        action: 'device-validity',
        targetType: 'device',
        targetId: device._id,
        detail: { isValid: device.isValid },
      });
      return { device };
    },

    regenerateCode: async (request) => {
      const { codeType } = request.query;
      const device = await devices.regenerateCode(request.params.id, codeType);
      await ctx.audit.record(request, {
        action: 'device-code-regenerate',
        targetType: 'device',
        targetId: device._id,
        detail: { codeType },
      });
      const message =
        codeType === 'activationCode'
          ? DEVICE_MESSAGES.activationCodeRegenerated
          : DEVICE_MESSAGES.apiAuthCodeRegenerated;
      return said(message, { device });
    },

    delete: async (request) => {
      await devices.delete(request.params.id);
      await ctx.audit.record(request, {
        action: 'device-delete',
        targetType: 'device',
        targetId: request.params.id,
      });
    },
  });
}
