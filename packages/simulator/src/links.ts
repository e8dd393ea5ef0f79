import { setTimeout as sleep } from 'node:timers/promises';
import { type DeviceTopicKind, deviceTopic } from '@vitalwatch/shared';
import { connectAsync, type MqttClient } from 'mqtt';
import { ApiError, type IngestCount, type ServerApi } from './api.ts';
import type { SimulatedDevice } from './devices.ts';

/** One device's connection to the server, over HTTP or MQTT. */
export interface DeviceLink {
  /** Resolves once the server committed the items (HTTP 202, MQTT PUBACK). */
  send(kind: DeviceTopicKind, items: object[]): Promise<IngestCount>;
  close(): Promise<void>;
}

const MAX_ATTEMPTS = 6;

/**
 * HTTP ingestion with retries on network errors, 429 and 5xx. Every item carries a messageId,
 * so a retry after a lost answer never stores a reading twice.
 */
export function httpLink(
  api: ServerApi,
  device: SimulatedDevice,
  onRetry?: (err: ApiError) => void,
): DeviceLink {
  return {
    async send(kind, items) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await api.ingest(device.apiAuthCode, kind, items);
        } catch (err) {
          if (!(err instanceof ApiError) || !err.retryable || attempt >= MAX_ATTEMPTS) throw err;
          onRetry?.(err);
          await sleep(err.retryAfterMs ?? Math.min(5000, 200 * 2 ** attempt));
        }
      }
    },
    async close() {},
  };
}

/**
 * MQTT: username = device id, password = apiAuthCode, QoS 1 to `devices/<id>/<kind>`. mqtt.js
 * resends an unacknowledged message after a reconnect, with the same payload (and messageId).
 */
export async function mqttLink(url: string, device: SimulatedDevice): Promise<DeviceLink> {
  const client: MqttClient = await connectAsync(
    url,
    {
      username: device._id,
      password: device.apiAuthCode,
      clean: true,
      reconnectPeriod: 1000,
      connectTimeout: 10_000,
    },
    false,
  );
  // Without a listener an 'error' (refused credentials, lost connection) would end the process.
  client.on('error', () => {});
  return {
    async send(kind, items) {
      const payload = JSON.stringify(items.length === 1 ? items[0] : items);
      await client.publishAsync(deviceTopic(device._id, kind), payload, { qos: 1 });
      return { accepted: items.length, duplicates: 0 };
    },
    async close() {
      await client.endAsync();
    },
  };
}

/**
 * Whether the broker lets a device in with a wrong password. VitalWatch's broker never does; a
 * broker that does is most likely another one on the same port (Mosquitto on 1883).
 */
export async function acceptsWrongPassword(url: string, deviceId: string): Promise<boolean> {
  try {
    const client = await connectAsync(
      url,
      { username: deviceId, password: 'not-the-api-auth-code', reconnectPeriod: 0, connectTimeout: 5000 },
      false,
    );
    await client.endAsync(true);
    return true;
  } catch {
    return false;
  }
}
