import { randomUUID } from 'node:crypto';
import { deviceTopic } from '@vitalwatch/shared';
import type { MqttClient } from 'mqtt';
import { symbols } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BuiltApp } from '../src/app.ts';
import type { DeviceAuthLimits } from '../src/auth/device-auth-limits.ts';
import { countRows, createDevice } from './device-helpers.ts';
import { createAdmin, type DbTarget, dbTargets } from './helpers.ts';
import { brokerUrl, connectDevice, useMqttApp } from './mqtt-helpers.ts';
import { freePort } from './realtime-helpers.ts';

/** Everything the app logs at warn and above while `work` runs (captured, not printed). */
async function logsOf(built: BuiltApp, work: () => Promise<void>): Promise<string> {
  const stream: unknown = Reflect.get(built.app.log, symbols.streamSym);
  if (typeof stream !== 'object' || stream === null || !('write' in stream)) throw new Error('no log stream');
  const lines: string[] = [];
  const spy = vi.spyOn(stream as { write(line: string): boolean }, 'write').mockImplementation((line) => {
    lines.push(line);
    return true;
  });
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return lines.join('');
}

/** An app with the embedded broker on a free port and these limits (every client is 127.0.0.1). */
const useBroker = (target: DbTarget, deviceAuth: Partial<DeviceAuthLimits>) =>
  useMqttApp(target, async () => ({ mqttPort: await freePort(), logLevel: 'warn', deviceAuth }));

describe.each(dbTargets())('MQTT authentication limits on $name', (target) => {
  const open: MqttClient[] = [];
  const keep = (client: MqttClient) => {
    open.push(client);
    return client;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.endAsync(true)));
  });

  describe('per device id', () => {
    const built = useBroker(target, { failuresPerDevice: 3 });

    it('after 3 wrong codes refuses the id even with its right code; other devices still connect', async () => {
      const admin = await createAdmin(built());
      const victim = await createDevice(built(), admin);
      const neighbour = await createDevice(built(), admin);
      const url = brokerUrl(built());
      const logged = await logsOf(built(), async () => {
        for (const guess of ['guess-one', 'guess-two', 'guess-three']) {
          await expect(connectDevice(url, { _id: victim._id, apiAuthCode: guess })).rejects.toThrow(
            /Bad username or password/,
          );
        }
        await expect(connectDevice(url, victim)).rejects.toThrow(/Not authorized/);
        await expect(connectDevice(url, { _id: victim._id, apiAuthCode: 'guess-four' })).rejects.toThrow(
          /Not authorized/,
        );
      });
      const client = keep(await connectDevice(url, neighbour));
      await client.publishAsync(deviceTopic(neighbour._id, 'health'), JSON.stringify({ heartRate: 70 }), {
        qos: 1,
      });
      expect(await countRows(built(), 'health_records', neighbour._id)).toBe(1);

      // One warning when the lock starts, naming the id; no code, right or wrong, in the logs.
      const warnings = logged.split('\n').filter((line) => line.includes('too many wrong codes'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(victim._id);
      expect(logged).not.toMatch(/guess-/);
      expect(logged).not.toContain(victim.apiAuthCode);
    });

    it('a successful login clears the count of earlier wrong codes', async () => {
      const admin = await createAdmin(built());
      const device = await createDevice(built(), admin);
      const url = brokerUrl(built());
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 2; i++) {
          await expect(connectDevice(url, { _id: device._id, apiAuthCode: 'old-code' })).rejects.toThrow(
            /Bad username or password/,
          );
        }
        // Four wrong codes in all, but never three since the last success.
        await keep(await connectDevice(url, device)).endAsync();
      }
    });

    it('keeps no lock for names that are not device ids', async () => {
      const admin = await createAdmin(built());
      const device = await createDevice(built(), admin);
      const url = brokerUrl(built());
      for (let i = 0; i < 4; i++) {
        await expect(
          connectDevice(url, { _id: 'gateway-admin', apiAuthCode: device.apiAuthCode }),
        ).rejects.toThrow(/Bad username or password/);
      }
    });
  });

  describe('per address', () => {
    const built = useBroker(target, { failuresPerIp: 4 });

    it('after 4 failed CONNECTs refuses every new one from the address; connected devices carry on', async () => {
      const admin = await createAdmin(built());
      const connected = await createDevice(built(), admin);
      const late = await createDevice(built(), admin);
      const url = brokerUrl(built());
      const client = keep(await connectDevice(url, connected));
      const logged = await logsOf(built(), async () => {
        // Different ids each time: the per-id limit (10) is never reached.
        for (let i = 0; i < 4; i++) {
          await expect(connectDevice(url, { _id: randomUUID(), apiAuthCode: 'guess' })).rejects.toThrow(
            /Bad username or password/,
          );
        }
        await expect(connectDevice(url, late)).rejects.toThrow(/Server unavailable/);
        await expect(connectDevice(url, { _id: randomUUID(), apiAuthCode: 'guess' })).rejects.toThrow(
          /Server unavailable/,
        );
      });
      const warnings = logged.split('\n').filter((line) => line.includes('too many failed connections'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('127.0.0.1');

      await client.publishAsync(deviceTopic(connected._id, 'health'), JSON.stringify({ spo2: 97 }), {
        qos: 1,
      });
      expect(await countRows(built(), 'health_records', connected._id)).toBe(1);
    });
  });

  describe('open connections per address', () => {
    const built = useBroker(target, { mqttConnectionsPerIp: 2 });

    it('drops a connection past the cap, and takes one again once another closed', async () => {
      const admin = await createAdmin(built());
      const [a, b, c] = await Promise.all([1, 2, 3].map(() => createDevice(built(), admin)));
      const url = brokerUrl(built());
      const first = await connectDevice(url, a!);
      keep(await connectDevice(url, b!));
      const logged = await logsOf(built(), async () => {
        await expect(connectDevice(url, c!)).rejects.toThrow();
        await expect(connectDevice(url, c!)).rejects.toThrow();
      });
      expect(logged.split('\n').filter((line) => line.includes('at the cap'))).toHaveLength(1);
      await first.endAsync(true);
      // The broker sees the close a moment after the client: try until it has.
      const deadline = Date.now() + 10_000;
      let third: MqttClient | undefined;
      while (!third) {
        try {
          third = keep(await connectDevice(url, c!));
        } catch (err) {
          if (Date.now() > deadline) throw err;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      expect(third.connected).toBe(true);
    });
  });
});
