import {
  adminDeviceLatestResponse,
  DEVICE_SETUP_MESSAGES,
  idParam,
  testReadingResponse,
} from '@vitalwatch/shared';
import type { AppContext, AppInstance } from '../../context.ts';
import { latestReadingOf, mqttEndpointOf, sendTestReading } from './device-setup.ts';

/**
 * The admin's first-run path for a device, under `/api/v1/admin`: see its newest reading and
 * where MQTT listens, and send it a test reading.
 */
export async function adminIngestRoutes(app: AppInstance, ctx: AppContext) {
  const onRequest = ctx.guards.requireRole('admin');

  app.post(
    '/device-latest/:id',
    { onRequest, schema: { params: idParam, response: { 200: adminDeviceLatestResponse } } },
    async (request) => ({
      success: true as const,
      message: DEVICE_SETUP_MESSAGES.latestFetched,
      data: {
        healthData: await latestReadingOf(ctx, request.params.id),
        mqtt: mqttEndpointOf(ctx.mqtt.status),
      },
    }),
  );

  app.post(
    '/test-reading/:id',
    { onRequest, schema: { params: idParam, response: { 202: testReadingResponse } } },
    async (request, reply) => {
      const data = await sendTestReading(ctx, request.params.id);
      const { messageId, ...values } = data.reading;
      await ctx.audit.record(request, {
        action: 'device-test-reading',
        targetType: 'device',
        targetId: request.params.id,
        detail: { messageId, ...values },
      });
      return reply.code(202).send({ success: true, message: DEVICE_SETUP_MESSAGES.testReadingSent, data });
    },
  );
}
