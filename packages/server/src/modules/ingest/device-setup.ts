/**
 * The admin's first-run path for a device: its newest reading, where MQTT listens, and one test
 * reading sent through the device's own ingest path (so alarms, rollups and real-time updates
 * treat it as any reading).
 */
import { randomUUID } from 'node:crypto';
import {
  DEVICE_SETUP_MESSAGES,
  type HealthRecord,
  type IngestResult,
  type MqttEndpoint,
  type TestReading,
} from '@vitalwatch/shared';
import { conflict, isDomainError } from '../../errors.ts';
import type { MqttGateway, MqttStatus } from '../../mqtt/gateway.ts';
import type { DeviceService } from '../device/service.ts';
import type { ReadingsService } from '../readings/service.ts';
import type { IngestService } from './service.ts';

/** What the first-run path reads and writes through: other modules' services. */
export interface DeviceSetupDeps {
  devices: Pick<DeviceService, 'byId'>;
  readings: Pick<ReadingsService, 'newest'>;
  ingest: Pick<IngestService, 'ingestHealth'>;
  mqtt: Pick<MqttGateway, 'status'>;
}

/** The MQTT port a URL without one means (IANA: 1883 for mqtt, 8883 for mqtts). */
const mqttDefaultPort = (url: URL) => (url.protocol === 'mqtts:' ? 8883 : 1883);

/** Where devices publish: the embedded broker's port, an external broker's address, or null when off. */
export function mqttEndpointOf(status: MqttStatus): MqttEndpoint | null {
  if (status.mode === 'embedded') return { host: null, port: status.port };
  if (status.mode === 'external') {
    const url = new URL(status.url);
    return { host: url.hostname, port: url.port ? Number(url.port) : mqttDefaultPort(url) };
  }
  return null;
}

const between = (min: number, max: number, step: number, random: () => number) =>
  Math.round((min + random() * (max - min)) / step) * step;

/**
 * One reading well inside every normal range: values NEWS2 (Royal College of Physicians, 2017)
 * scores 0 (SpO2 ≥ 96 %, pulse 51–90, temperature 36.1–38.0 °C) that are also inside the spec's
 * normal ranges (SpO2 ≥ 95, heart rate 60–100, temperature 95–98.4 °F), and a battery far above
 * the low-battery level of 20 %. Its `messageId` says it is a test.
 */
export function normalTestReading(random: () => number = Math.random): TestReading {
  return {
    messageId: `admin-test-${randomUUID()}`,
    spo2: between(97, 99, 1, random),
    heartRate: between(66, 80, 1, random),
    temperature: Number(between(97.6, 98.2, 0.1, random).toFixed(1)),
    battery: between(85, 100, 1, random),
  };
}

/** The admin's first-run path for a device, through other modules' services. */
export class DeviceSetupService {
  readonly #deps: DeviceSetupDeps;

  constructor(deps: DeviceSetupDeps) {
    this.#deps = deps;
  }

  /** The device's newest reading (by `recordedAt`) or null, and where MQTT listens; 404 for an unknown device. */
  async latest(deviceId: string): Promise<{ healthData: HealthRecord | null; mqtt: MqttEndpoint | null }> {
    const device = await this.#deps.devices.byId(deviceId);
    return {
      healthData: await this.#deps.readings.newest(device.id),
      mqtt: mqttEndpointOf(this.#deps.mqtt.status),
    };
  }

  /**
   * Stores one normal reading for the device through `ingest.ingestHealth`, the call the HTTP and
   * MQTT ingest make once a device is authenticated. 404 for an unknown device; 409 for an inactive
   * one (a device's own reading would be refused with 403, which here would read as "not an admin").
   */
  async sendTestReading(deviceId: string): Promise<IngestResult & { reading: TestReading }> {
    const device = await this.#deps.devices.byId(deviceId);
    if (!device.isValid) throw conflict(DEVICE_SETUP_MESSAGES.inactive);
    const reading = normalTestReading();
    const result = await this.#deps.ingest
      .ingestHealth({ id: device.id }, [reading])
      .catch((err: unknown) => {
        // Switched off since it was read above: the commit refused it.
        throw isDomainError(err, 'deviceInactive') ? conflict(DEVICE_SETUP_MESSAGES.inactive) : err;
      });
    return { ...result, reading };
  }
}
