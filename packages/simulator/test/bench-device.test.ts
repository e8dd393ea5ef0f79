import { randomBytes } from 'node:crypto';
import { connectAsync } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { BenchDevice } from '../src/bench/mqtt-device.ts';

// The local Mosquitto (TEST_MQTT_URL), which lets anyone in: the benchmark's device client
// against a real broker, including losing its connection the way a broker drops one.
const mqttUrl = process.env.TEST_MQTT_URL;

describe.skipIf(!mqttUrl)('the benchmark device client on Mosquitto', () => {
  const opened: { end(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((c) => c.end()));
  });

  async function watch(topic: string) {
    const watcher = await connectAsync(mqttUrl!, { clean: true, reconnectPeriod: 0 });
    opened.push({ end: () => watcher.endAsync(true) });
    const seen: string[] = [];
    watcher.on('message', (_topic, payload) => seen.push(payload.toString()));
    await watcher.subscribeAsync(topic, { qos: 1 });
    return seen;
  }

  /** A connected device and what a subscriber sees on its topic. */
  async function watchedDevice() {
    const id = `bench-${randomBytes(4).toString('hex')}`;
    const topic = `vw-test/${id}`;
    const seen = await watch(topic);
    const device = await BenchDevice.connect(mqttUrl!, id, 'code');
    opened.push(device);
    return { id, topic, seen, device };
  }

  it('publishes at QoS 1, resolving on each PUBACK', async () => {
    const { topic, seen, device } = await watchedDevice();
    await Promise.all(['a', 'b', 'c'].map((p) => device.publish(topic, p)));
    await expect.poll(() => [...seen].sort()).toEqual(['a', 'b', 'c']);
  });

  it('reconnects after losing its connection and delivers what was not acknowledged', async () => {
    const { id, topic, seen, device } = await watchedDevice();
    await device.publish(topic, 'before');
    // Another client with the same client id: the broker drops the device's connection.
    const usurper = await connectAsync(mqttUrl!, { clientId: id, clean: true, reconnectPeriod: 0 });
    await usurper.endAsync(true);
    await device.publish(topic, 'while away');
    await expect.poll(() => seen).toEqual(['before', 'while away']);
  });

  it('refuses to publish once ended', async () => {
    const device = await BenchDevice.connect(mqttUrl!, `bench-${randomBytes(4).toString('hex')}`, 'code');
    await device.end();
    await expect(device.publish('vw-test/x', 'late')).rejects.toThrow('device ended');
  });
});
