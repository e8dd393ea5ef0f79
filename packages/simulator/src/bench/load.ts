import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type DeviceTopicKind, deviceTopic, type HealthRecord, healthRecord } from '@vitalwatch/shared';
import { connectAsync } from 'mqtt';
import { io } from 'socket.io-client';
import type { ServerApi } from '../api.ts';
import type { SimulatedDevice } from '../devices.ts';
import { inBatches } from '../progress.ts';
import { seedFrom, VitalsModel } from '../vitals.ts';
import { BenchDevice } from './mqtt-device.ts';

export interface Window {
  warmupMs: number;
  durationMs: number;
}

/** Readings of one device with unique messageIds, recorded now. */
export class ReadingSource {
  private readonly model: VitalsModel;
  private seq = 0;
  private readonly prefix = randomBytes(3).toString('hex');

  constructor(device: SimulatedDevice) {
    this.model = new VitalsModel(seedFrom(device._id));
  }

  next(): object {
    const now = Date.now();
    return {
      messageId: `${this.prefix}-${(this.seq++).toString(36)}`,
      recordedAt: new Date(now).toISOString(),
      ...this.model.next(now).reading,
    };
  }
}

/** Counts what happens inside the measured window only (after the warm-up). */
class Meter {
  count = 0;
  errors = 0;
  measuring = false;
  startedAt = 0;
  endedAt = 0;

  async run(window: Window, onStart?: () => void): Promise<void> {
    await sleep(window.warmupMs);
    this.measuring = true;
    this.startedAt = Date.now();
    onStart?.();
    await sleep(window.durationMs);
    this.measuring = false;
    this.endedAt = Date.now();
  }

  add(n: number) {
    if (this.measuring) this.count += n;
  }

  get perSecond(): number {
    return (this.count * 1000) / Math.max(1, this.endedAt - this.startedAt);
  }
}

/** A device's MQTT connection, as the phases use it. */
export interface DeviceClient {
  /** QoS 1; resolves on the PUBACK. */
  publish(topic: string, payload: string): Promise<void>;
  end(): Promise<void>;
}

/** The devices' MQTT clients the benchmark can use (`--mqtt-client`). */
export const MQTT_CLIENTS = ['lean', 'mqtt.js'] as const;

/**
 * One MQTT connection per device, authenticated by device id and API code (an external broker may
 * ignore them): the lean BenchDevice, or mqtt.js to compare with figures measured with it.
 */
export async function connectDevices(
  mqttUrl: string,
  devices: SimulatedDevice[],
  client: (typeof MQTT_CLIENTS)[number],
): Promise<DeviceClient[]> {
  if (client === 'lean')
    return inBatches(devices, 50, (d) => BenchDevice.connect(mqttUrl, d._id, d.apiAuthCode));
  return inBatches(devices, 50, async (d) => {
    const c = await connectAsync(
      mqttUrl,
      { username: d._id, password: d.apiAuthCode, reconnectPeriod: 1000, clean: true },
      false,
    );
    return {
      publish: async (topic: string, payload: string) => {
        await c.publishAsync(topic, payload, { qos: 1 });
      },
      end: () => c.endAsync(true),
    };
  });
}

/**
 * As fast as the server acknowledges: every device keeps `window` QoS 1 publishes (one reading
 * each) in flight and sends the next as soon as a PUBACK (= committed) comes back.
 */
export async function mqttThroughput(
  clients: DeviceClient[],
  devices: SimulatedDevice[],
  windowSize: number,
  window: Window,
  onStart?: () => void,
) {
  const meter = new Meter();
  let stop = false;
  const loops = clients.flatMap((client, i) => {
    const device = devices[i]!;
    const source = new ReadingSource(device);
    const topic = deviceTopic(device._id, 'health');
    return Array.from({ length: windowSize }, async () => {
      while (!stop) {
        try {
          await client.publish(topic, JSON.stringify(source.next()));
          meter.add(1);
        } catch {
          meter.errors++;
          await sleep(100);
        }
      }
    });
  });
  await meter.run(window, onStart);
  stop = true;
  await Promise.all(loops);
  return meter;
}

/** `concurrency` posters, each sending batches of `batch` readings of one device at a time. */
export async function httpThroughput(
  api: ServerApi,
  devices: SimulatedDevice[],
  batch: number,
  concurrency: number,
  window: Window,
  onStart?: () => void,
) {
  const meter = new Meter();
  const sources = devices.map((d) => new ReadingSource(d));
  let stop = false;
  let next = 0;
  const loops = Array.from({ length: concurrency }, async () => {
    while (!stop) {
      const i = next++ % devices.length;
      const items = Array.from({ length: batch }, () => sources[i]!.next());
      try {
        const result = await api.ingest(devices[i]!.apiAuthCode, 'health' satisfies DeviceTopicKind, items);
        meter.add(result.accepted);
      } catch {
        meter.errors++;
        await sleep(100);
      }
    }
  });
  await meter.run(window, onStart);
  stop = true;
  await Promise.all(loops);
  return meter;
}

/** Sends one reading of device `i` (a monotonic counter spread over the devices) without waiting for it. */
export type SendReading = (i: number, reading: object, done: (err?: unknown) => void) => void;

/** QoS 1 publishes on each device's own connection. */
export function mqttSender(clients: DeviceClient[], devices: SimulatedDevice[]): SendReading {
  const topics = devices.map((d) => deviceTopic(d._id, 'health'));
  return (i, reading, done) =>
    void clients[i]!.publish(topics[i]!, JSON.stringify(reading)).then(() => done(), done);
}

/** One POST /api/v1/ingest/health per reading, with the device's API key. */
export function httpSender(api: ServerApi, devices: SimulatedDevice[]): SendReading {
  return (i, reading, done) =>
    void api.ingest(devices[i]!.apiAuthCode, 'health', [reading]).then(
      () => done(),
      (err: unknown) => done(err),
    );
}

/**
 * Device → browser latency at a fixed rate: readings sent by `send` (spread over the devices),
 * received as `healthDataUpdate` by a socket of the user watching every device.
 * Latency = receive time − the reading's `createdAt` (its `recordedAt`, stamped when it was sent).
 */
export async function socketLatency(opts: {
  url: string;
  accessToken: string;
  devices: SimulatedDevice[];
  send: SendReading;
  rate: number;
  window: Window;
  onStart?: () => void;
}) {
  const socket = io(opts.url, {
    auth: { token: opts.accessToken },
    transports: ['websocket'],
    reconnection: false,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  const meter = new Meter();
  const latencies: number[] = [];
  let received = 0;
  socket.on('healthDataUpdate', (payload: unknown) => {
    const now = Date.now();
    const parsed = healthRecord.safeParse(payload);
    if (!parsed.success) return;
    const record: HealthRecord = parsed.data;
    received++;
    if (meter.measuring) latencies.push(now - Date.parse(record.createdAt));
  });

  const sources = opts.devices.map((d) => new ReadingSource(d));
  let sent = 0;
  let stop = false;
  const started = Date.now();
  const pacer = (async () => {
    while (!stop) {
      const due = Math.floor(((Date.now() - started) * opts.rate) / 1000);
      for (; sent < due; sent++) {
        const i = sent % opts.devices.length;
        opts.send(i, sources[i]!.next(), (err) => {
          if (err) meter.errors++;
          else meter.add(1);
        });
      }
      await sleep(2);
    }
  })();
  await meter.run(opts.window, opts.onStart);
  stop = true;
  await pacer;
  await sleep(500);
  socket.close();
  return { meter, latencies, sent, received };
}
