import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { MQTT_SHARED_SUBSCRIPTION } from '@vitalwatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { IPublishPacket, MqttClient } from 'mqtt';
import { loadMqtt } from '../lib/optional-packages.ts';
import {
  type DeviceIngest,
  handleDeviceMessage,
  type MqttStats,
  parseDeviceTopic,
} from './device-messages.ts';

/** What the bridge needs: the device behind a topic (no password: the broker authenticated it). */
export interface TopicDeviceIngest<Device> extends DeviceIngest<Device> {
  /** The device if it exists and may ingest; else throws a 403/404 AppError. */
  findIngestDevice(deviceId: string): Promise<Device>;
}

export interface ExternalBridgeOptions<Device> {
  url: string;
  ingest: TopicDeviceIngest<Device>;
  stats: MqttStats;
  log: FastifyBaseLogger;
  /** Parallel subscriber connections (default BRIDGE_CONNECTIONS). */
  connections?: number;
}

export interface ExternalBridge {
  /** At least one subscriber connection is up. */
  connected(): boolean;
  close(): Promise<void>;
}

const CONNECT_TIMEOUT_MS = 10_000;
/**
 * mqtt.js handles one message at a time per connection, and a message is acknowledged only once
 * committed, so a connection carries one commit round trip at a time. Measured with `npm run
 * bench -- --mqtt-url …` through the local Mosquitto (PostgreSQL, 2 cores), device→socket at
 * 1,000 readings/s: 4 connections fell behind (p99 1,079 ms); 16 kept up (p99 23 ms). At 3,000/s:
 * 32 connections p99 857 ms, 64 p99 270 ms. The group commit turns the concurrent messages into
 * shared inserts, so more connections mean bigger batches, not more database load.
 */
const BRIDGE_CONNECTIONS = 64;
const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 5_000;

/**
 * The server as a client of an external broker (EMQX, Mosquitto, …), subscribed to
 * `$share/vitalwatch/devices/+/+` so every server node takes a share of the device traffic.
 * Device authentication and the topic ACL belong to the broker (its HTTP auth hook); here the
 * topic's device must exist and be valid. PUBACK to the broker only after commit: mqtt.js sends it
 * when `handleMessage` calls back. When ingestion fails (database down) the message is retried
 * here until it commits, holding that connection; the broker queues meanwhile.
 *
 * Sessions are clean: with persistent sessions, brokers keep routing a share of the messages to a
 * server node that is gone. A message in flight when a node stops is therefore lost at the broker.
 */
export async function startExternalBridge<Device>(
  opts: ExternalBridgeOptions<Device>,
): Promise<ExternalBridge> {
  const { ingest, stats, log } = opts;
  let stopping = false;
  const handle = async (packet: IPublishPacket): Promise<void> => {
    const target = parseDeviceTopic(packet.topic);
    if (!target) return;
    const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
    const resolveDevice = () => ingest.findIngestDevice(target.deviceId);
    for (let delay = RETRY_MIN_MS; ; delay = Math.min(delay * 2, RETRY_MAX_MS)) {
      // 'refuse' (unknown or disabled device) is acknowledged too: resending cannot make it valid.
      const outcome = await handleDeviceMessage(ingest, stats, log, target, resolveDevice, payload);
      if (outcome !== 'retry') return;
      if (stopping) throw new Error('shutting down: message not stored, so not acknowledged');
      await sleep(delay);
    }
  };

  const { connectAsync } = await loadMqtt();
  const clients: MqttClient[] = [];
  const prefix = `vitalwatch-${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  try {
    for (let i = 0; i < (opts.connections ?? BRIDGE_CONNECTIONS); i++) {
      const client = await connectAsync(
        opts.url,
        {
          clientId: `${prefix}-${i}`,
          clean: true,
          reconnectPeriod: 1000,
          connectTimeout: CONNECT_TIMEOUT_MS,
        },
        false,
      );
      client.handleMessage = (packet, callback) => {
        handle(packet).then(
          () => callback(),
          (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
        );
      };
      client.on('error', (err) => log.warn({ err: err.message }, 'MQTT bridge connection error'));
      clients.push(client);
      const [granted] = await client.subscribeAsync(MQTT_SHARED_SUBSCRIPTION, { qos: 1 });
      if (granted?.qos !== 1) {
        throw new Error(`the broker refused the subscription ${MQTT_SHARED_SUBSCRIPTION} at QoS 1`);
      }
    }
  } catch (err) {
    await Promise.all(clients.map((c) => c.endAsync(true)));
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`Cannot use the MQTT broker at ${redact(opts.url)}: ${reason}`);
  }
  return {
    connected: () => clients.some((c) => c.connected),
    async close() {
      stopping = true;
      await Promise.all(clients.map((c) => c.endAsync()));
    },
  };
}

/** The broker URL without its password, for messages. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}
