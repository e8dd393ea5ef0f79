import {
  adminDeviceBody,
  adminDeviceResponse,
  adminDevicesResponse,
  adminDeviceUpdateBody,
  CLAIM_PATH,
  changeValidityBody,
  codeTypeQuery,
  DEVICE_MESSAGES,
  idParam,
  messageOnly,
} from '@vitalwatch/shared';
import type { AppContext, AppInstance } from '../../context.ts';
import { deviceLabelsPdf } from './labels-pdf.ts';

/**
 * Admin device management, registered under `/api/v1/admin` beside the admin user API (a
 * separate plugin with distinct paths).
 */
export async function adminDeviceRoutes(app: AppInstance, ctx: AppContext) {
  const { devices } = ctx;
  const onRequest = ctx.guards.requireRole('admin');

  app.post('/all-devices', { onRequest, schema: { response: { 200: adminDevicesResponse } } }, async () => ({
    success: true as const,
    message: DEVICE_MESSAGES.fetched,
    data: { devices: await devices.listAll() },
  }));

  // Admin → Devices → Print labels: a QR code per device that opens its claim link.
  app.get('/device-labels', { onRequest }, async (request, reply) => {
    const origin = ctx.config.publicUrl ?? `${request.protocol}://${request.host}`;
    const pdf = await deviceLabelsPdf(
      await devices.listAll(),
      (code) => `${origin}${CLAIM_PATH}/${encodeURIComponent(code)}`,
    );
    return reply
      .type('application/pdf')
      .header('content-disposition', 'attachment; filename="vitalwatch-device-labels.pdf"')
      .send(pdf);
  });

  app.post(
    '/add-device',
    { onRequest, schema: { body: adminDeviceBody, response: { 201: adminDeviceResponse } } },
    async (request, reply) => {
      const device = await devices.create(request.body);
      await ctx.audit.record(request, {
        action: 'device-create',
        targetType: 'device',
        targetId: device._id,
        detail: { deviceName: device.deviceName, users: request.body.users.join(',') },
      });
      return reply.code(201).send({ success: true, message: DEVICE_MESSAGES.added, data: { device } });
    },
  );

  app.post(
    '/update-device/:id',
    {
      onRequest,
      schema: { params: idParam, body: adminDeviceUpdateBody, response: { 200: adminDeviceResponse } },
    },
    async (request) => {
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
      return { success: true as const, message: DEVICE_MESSAGES.updated, data: { device } };
    },
  );

  app.post(
    '/change-validity/:id',
    {
      onRequest,
      schema: { params: idParam, body: changeValidityBody, response: { 200: adminDeviceResponse } },
    },
    async (request) => {
      const device = await devices.changeValidity(request.params.id, request.body.isValid);
      await ctx.audit.record(request, {
        action: 'device-validity',
        targetType: 'device',
        targetId: device._id,
        detail: { isValid: device.isValid },
      });
      return { success: true as const, message: DEVICE_MESSAGES.validityChanged, data: { device } };
    },
  );

  app.post(
    '/regenerate-code/:id',
    {
      onRequest,
      schema: { params: idParam, querystring: codeTypeQuery, response: { 200: adminDeviceResponse } },
    },
    async (request) => {
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
      return { success: true as const, message, data: { device } };
    },
  );

  app.post(
    '/delete-device/:id',
    { onRequest, schema: { params: idParam, response: { 200: messageOnly } } },
    async (request) => {
      await devices.delete(request.params.id);
      await ctx.audit.record(request, {
        action: 'device-delete',
        targetType: 'device',
        targetId: request.params.id,
      });
      return { success: true as const, message: DEVICE_MESSAGES.deleted };
    },
  );
}
