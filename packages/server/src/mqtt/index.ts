import { deviceAuthLimits } from '../auth/device-auth-limits.ts';
import type { AppContext, AppInstance } from '../context.ts';
import { mqttAuthHookRoutes } from './auth-hook-routes.ts';
import { connectLimits } from './connect-guard.ts';
import type { MqttIngest } from './gateway.ts';

export { DEFAULT_MQTT_PORT, MqttGateway, type MqttStatus } from './gateway.ts';

/**
 * Start MQTT ingestion when the app is ready; stop taking messages before the app closes. With an
 * external broker, also serve its HTTP auth hooks under /api/v1/mqtt.
 */
export async function registerMqtt(app: AppInstance, ctx: AppContext): Promise<void> {
  const ingest = mqttIngest(ctx);
  const limits = connectLimits(
    ctx.redis,
    deviceAuthLimits(ctx.config.deviceAuth),
    app.log.child({ component: 'mqtt' }),
  );
  app.addHook('onReady', async () => {
    await ctx.mqtt.start(ingest, app.log, limits);
  });
  app.addHook('preClose', async () => {
    await ctx.mqtt.stop();
  });
  if (ctx.config.mqttUrl) {
    await app.register((instance) => mqttAuthHookRoutes(instance, ctx, limits.wrongCodes), {
      prefix: '/api/v1',
    });
  }
}

type IngestDevice = Awaited<ReturnType<AppContext['ingest']['authenticateDevice']>>;

function mqttIngest({ ingest }: AppContext): MqttIngest<IngestDevice> {
  return {
    authenticateDevice: (deviceId, apiAuthCode) => ingest.authenticateDevice(deviceId, apiAuthCode),
    ingestHealth: (device, readings, whenFull) => ingest.ingestHealth(device, readings, whenFull),
    ingestAlerts: (device, events) => ingest.ingestAlerts(device, events),
    findIngestDevice: (deviceId) => ingest.findActiveDevice(deviceId),
  };
}
