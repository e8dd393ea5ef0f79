import { MQTT_SHARED_SUBSCRIPTION } from '@vitalwatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../config.ts';
import type { ConnectLimits } from './connect-guard.ts';
import { emptyStats, type MqttStats } from './device-messages.ts';
import { type DeviceAuthenticator, startEmbeddedBroker } from './embedded-broker.ts';
import { redact, startExternalBridge, type TopicDeviceIngest } from './external-bridge.ts';

/** The MQTT port when MQTT_PORT is not set. */
export const DEFAULT_MQTT_PORT = 1883;

export type MqttIngest<Device> = DeviceAuthenticator<Device> & TopicDeviceIngest<Device>;

export type MqttStatus =
  | { mode: 'off'; reason: string }
  | { mode: 'embedded'; url: string; port: number; requestedPort: number }
  | { mode: 'external'; url: string };

/**
 * Device ingestion over MQTT, in one of three modes fixed by the configuration:
 * - MQTT_URL set: the server subscribes to an external broker (shared subscription);
 * - MQTT_PORT=0: off;
 * - otherwise the embedded broker on MQTT_PORT. Not set: 1883, and when 1883 is taken (another
 *   broker runs on the machine) the next free port, said plainly at start-up. Set but taken:
 *   a start-up error.
 */
export class MqttGateway {
  readonly stats: MqttStats = emptyStats();
  status: MqttStatus = { mode: 'off', reason: 'not started' };
  private running: { close(): Promise<void>; connected?: () => boolean; clients?: () => number } | undefined;

  private readonly config: Pick<AppConfig, 'mqttPort' | 'mqttUrl' | 'host'>;

  constructor(config: Pick<AppConfig, 'mqttPort' | 'mqttUrl' | 'host'>) {
    this.config = config;
  }

  /** `limits` guard the embedded broker's CONNECTs (with an external broker, the auth hook uses them). */
  async start<Device>(
    ingest: MqttIngest<Device>,
    log: FastifyBaseLogger,
    limits: ConnectLimits,
  ): Promise<void> {
    const { mqttUrl, mqttPort, host } = this.config;
    const mqttLog = log.child({ component: 'mqtt' });
    if (mqttUrl) {
      this.running = await startExternalBridge({ url: mqttUrl, ingest, stats: this.stats, log: mqttLog });
      this.status = { mode: 'external', url: redact(mqttUrl) };
      return;
    }
    if (mqttPort === 0) {
      this.status = { mode: 'off', reason: 'MQTT_PORT=0' };
      return;
    }
    const requestedPort = mqttPort ?? DEFAULT_MQTT_PORT;
    const broker = await startEmbeddedBroker({
      ingest,
      stats: this.stats,
      log: mqttLog,
      limits,
      host,
      port: requestedPort,
      fallback: mqttPort === undefined,
    });
    this.running = broker;
    const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
    this.status = {
      mode: 'embedded',
      url: `mqtt://${shownHost}:${broker.port}`,
      port: broker.port,
      requestedPort,
    };
  }

  async stop(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    await running?.close();
  }

  /** For /readyz: undefined when MQTT is off; else whether devices can be served. */
  isReady(): boolean | undefined {
    if (this.status.mode === 'off') return undefined;
    return this.running !== undefined && (this.running.connected?.() ?? true);
  }

  /** Devices connected to the embedded broker; undefined when it does not run (off, or an external broker). */
  clients(): number | undefined {
    return this.running?.clients?.();
  }

  /** One line for the start-up banner: where devices connect, or why they cannot. */
  describe(): string {
    const s = this.status;
    if (s.mode === 'off') return `MQTT: off (${s.reason})`;
    if (s.mode === 'external') {
      return `MQTT: external broker ${s.url}, shared subscription ${MQTT_SHARED_SUBSCRIPTION}; device authentication is the broker's job`;
    }
    if (s.port === s.requestedPort) return `MQTT: embedded broker at ${s.url}`;
    return (
      `MQTT: embedded broker at ${s.url}, because port ${s.requestedPort} is taken (another MQTT broker?).` +
      ' Set MQTT_PORT to choose the port, or MQTT_PORT=0 to turn the embedded broker off.'
    );
  }
}
