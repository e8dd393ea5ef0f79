import type { AdminDevice } from '@vitalwatch/shared';
import { connectAsync, type IClientOptions, type MqttClient } from 'mqtt';
import { afterAll, beforeAll } from 'vitest';
import { type BuiltApp, buildApp } from '../src/app.ts';
import type { AppConfig } from '../src/config.ts';
import type { DbTarget } from './helpers.ts';
import { testConfig } from './helpers.ts';
import { freePort } from './realtime-helpers.ts';

/**
 * Like useTestApp, with MQTT on: the embedded broker on a free port (the default), or whatever
 * `overrides` say (MQTT_URL for an external broker). The app also listens for sockets.
 */
export function useMqttApp(
  target: DbTarget,
  overrides: () => Partial<AppConfig> | Promise<Partial<AppConfig>> = async () => ({
    mqttPort: await freePort(),
  }),
): () => BuiltApp {
  let built: BuiltApp | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const opened = await target.open();
    drop = opened.drop;
    built = await buildApp(testConfig(await overrides()), { database: opened.database });
    await built.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await built?.app.close();
    await drop?.();
  });
  return () => {
    if (!built) throw new Error('test app not built yet');
    return built;
  };
}

/** mqtt:// URL of the app's embedded broker. */
export function brokerUrl(built: BuiltApp): string {
  const status = built.ctx.mqtt.status;
  if (status.mode !== 'embedded') throw new Error(`embedded broker not running (${status.mode})`);
  return `mqtt://127.0.0.1:${status.port}`;
}

/** A device's MQTT connection (no automatic reconnect: tests watch refusals and disconnects). */
export function connectDevice(
  url: string,
  device: Pick<AdminDevice, '_id' | 'apiAuthCode'>,
  options: IClientOptions = {},
): Promise<MqttClient> {
  return connectAsync(
    url,
    {
      username: device._id,
      password: device.apiAuthCode,
      reconnectPeriod: 0,
      connectTimeout: 5000,
      ...options,
    },
    false,
  );
}

/** Resolves when the client's connection closes. */
export const closed = (client: MqttClient) =>
  new Promise<void>((resolve) => {
    if (!client.connected) resolve();
    else client.once('close', () => resolve());
  });
