import { contracts } from '@vitalwatch/shared';
import type { AppContext, AppInstance } from '../../context.ts';
import { serveContracts, userAuthHooks } from '../../http/contract-routes.ts';

/**
 * `contracts.deviceSetup`: the admin's first-run path for a device: see its newest reading and
 * where MQTT listens, and send it a test reading.
 */
export async function adminIngestRoutes(app: AppInstance, ctx: AppContext) {
  serveContracts(app, userAuthHooks(ctx.guards), contracts.deviceSetup, {
    latest: async (request) => ctx.deviceSetup.latest(request.params.id),
    testReading: async (request) => {
      const data = await ctx.deviceSetup.sendTestReading(request.params.id);
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
