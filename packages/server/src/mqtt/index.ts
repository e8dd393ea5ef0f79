import { DEVICE_MESSAGES } from '@vitalwatch/shared';
import { deviceAuthLimits } from '../auth/device-auth-limits.ts';
import type { AppContext, AppInstance } from '../context.ts';
import { forbidden, notFound } from '../errors.ts';
import { findDeviceById } from '../modules/device/repository.ts';
import { mqttAuthHookRoutes } from './auth-hook-routes.ts';
import { connectLimits, isDeviceId } from './connect-guard.ts';
import type { MqttIngest } from './gateway.ts';

export { DEFAULT_MQTT_PORT, MqttGateway, type MqttStatus } from './gateway.ts';

/** How long the external-broker path trusts a device lookup (ingestion caches credentials as long). */
const DEVICE_TTL_MS = 1000;
const DEVICE_CACHE_MAX = 10_000;

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
      prefix: '/api/v1/mqtt',
    });
  }
}

type IngestDevice = Awaited<ReturnType<AppContext['ingest']['authenticateDevice']>>;

function mqttIngest(ctx: AppContext): MqttIngest<IngestDevice> {
  const cache = new Map<string, { device: IngestDevice | undefined; at: number }>();
  return {
    authenticateDevice: (deviceId, apiAuthCode) => ctx.ingest.authenticateDevice(deviceId, apiAuthCode),
    ingestHealth: (device, readings, whenFull) => ctx.ingest.ingestHealth(device, readings, whenFull),
    ingestAlerts: (device, events) => ctx.ingest.ingestAlerts(device, events),
    async findIngestDevice(deviceId) {
      const now = Date.now();
      let entry = cache.get(deviceId);
      if (!entry || now - entry.at >= DEVICE_TTL_MS) {
        if (cache.size >= DEVICE_CACHE_MAX) cache.clear();
        // Not a UUID: no such device (and no query the database would refuse).
        const device = isDeviceId(deviceId) ? await findDeviceById(ctx.db, deviceId) : undefined;
        entry = { device, at: now };
        cache.set(deviceId, entry);
      }
      if (!entry.device) throw notFound(DEVICE_MESSAGES.notFound);
      if (!entry.device.isValid) throw forbidden(DEVICE_MESSAGES.inactive);
      return entry.device;
    },
  };
}
