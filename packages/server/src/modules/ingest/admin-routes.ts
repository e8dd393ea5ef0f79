import { contracts } from '@vitalwatch/shared';
import type { AppContext, AppInstance } from '../../context.ts';
import { serveContracts, userAuthHooks } from '../../http/contract-routes.ts';
import { latestReadingOf, mqttEndpointOf, sendTestReading } from './device-setup.ts';

/**
 * `contracts.deviceSetup`: the admin's first-run path for a device: see its newest reading and
 * where MQTT listens, and send it a test reading.
 */
export async function adminIngestRoutes(app: AppInstance, ctx: AppContext) {
  serveContracts(app, userAuthHooks(ctx.guards), contracts.deviceSetup, {
    latest: async (request) => ({
      healthData: await latestReadingOf(ctx, request.params.id),
      mqtt: mqttEndpointOf(ctx.mqtt.status),
    }),
    testReading: async (request) => {
      const data = await sendTestReading(ctx, request.params.id);
      const { messageId, ...values } = data.reading;
      await ctx.audit.record(request, {
        action: 'device-test-reading',
        targetType: 'device',
        targetId: request.params.id,
        detail: { messageId, ...values },
      });
      return data;
    },
  });
}
