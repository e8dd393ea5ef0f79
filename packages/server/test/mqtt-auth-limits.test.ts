import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { deviceTopic } from '@vitalwatch/shared';
import type { MqttClient } from 'mqtt';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addressKey } from '../src/auth/address-key.ts';
import type { DeviceAuthLimits } from '../src/auth/device-auth-limits.ts';
import { VerifiedCredentials } from '../src/mqtt/verified-credentials.ts';
import { countRows, createDevice } from './device-helpers.ts';
import { createAdmin, type DbTarget, dbTargets, logsOf } from './helpers.ts';
import { brokerUrl, connectDevice, useMqttApp } from './mqtt-helpers.ts';
import { freePort } from './realtime-helpers.ts';

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

    it('never refuses the right code after wrong ones; reports the id once, without codes', async () => {
      const admin = await createAdmin(built());
      const victim = await createDevice(built(), admin);
      const url = brokerUrl(built());
      const logged = await logsOf(built(), async () => {
        for (const guess of ['guess-one', 'guess-two', 'guess-three', 'guess-four', 'guess-five']) {
          await expect(connectDevice(url, { _id: victim._id, apiAuthCode: guess })).rejects.toThrow(
            /Bad username or password/,
          );
        }
        const client = keep(await connectDevice(url, victim));
        await client.publishAsync(deviceTopic(victim._id, 'alert'), JSON.stringify({ alertType: 'SOS' }), {
          qos: 1,
        });
        await expect(connectDevice(url, { _id: victim._id, apiAuthCode: 'guess-six' })).rejects.toThrow(
          /Bad username or password/,
        );
        keep(await connectDevice(url, victim));
      });
      expect(await countRows(built(), 'alerts', victim._id)).toBe(1);

      const warnings = logged.split('\n').filter((line) => line.includes('wrong codes keep coming'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(victim._id);
      expect(logged).not.toMatch(/guess-/);
      expect(logged).not.toContain(victim.apiAuthCode);
    });

    it('reports no names that are not device ids', async () => {
      const admin = await createAdmin(built());
      const device = await createDevice(built(), admin);
      const url = brokerUrl(built());
      const logged = await logsOf(built(), async () => {
        for (let i = 0; i < 4; i++) {
          await expect(
            connectDevice(url, { _id: 'gateway-admin', apiAuthCode: device.apiAuthCode }),
          ).rejects.toThrow(/Bad username or password/);
        }
      });
      expect(logged).not.toContain('wrong codes keep coming');
    });
  });

  describe('per address', () => {
    const built = useBroker(target, { failuresPerIp: 4 });

    it('once blocked, lets in only devices that logged in before, and refuses the rest without a lookup', async () => {
      const admin = await createAdmin(built());
      const [connected, known, disabledSince, late] = await Promise.all(
        [1, 2, 3, 4].map(() => createDevice(built(), admin)),
      );
      const url = brokerUrl(built());
      const client = keep(await connectDevice(url, connected!));
      await (await connectDevice(url, known!)).endAsync();
      await (await connectDevice(url, disabledSince!)).endAsync();

      const lookups = vi.spyOn(built().ctx.ingest, 'authenticateDevice');
      const logged = await logsOf(built(), async () => {
        for (let i = 0; i < 4; i++) {
          await expect(connectDevice(url, { _id: randomUUID(), apiAuthCode: 'guess' })).rejects.toThrow(
            /Bad username or password/,
          );
        }
        lookups.mockClear();
        // Never logged in (here): refused before the database is asked, the right code or not.
        await expect(connectDevice(url, late!)).rejects.toThrow(/Server unavailable/);
        await expect(connectDevice(url, { _id: randomUUID(), apiAuthCode: 'guess' })).rejects.toThrow(
          /Server unavailable/,
        );
        await expect(connectDevice(url, { _id: known!._id, apiAuthCode: 'guess' })).rejects.toThrow(
          /Server unavailable/,
        );
        expect(lookups).not.toHaveBeenCalled();
      });
      lookups.mockRestore();
      const warnings = logged.split('\n').filter((line) => line.includes('too many failed connections'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('127.0.0.1');

      // Logged in before: still checked against the database, and let in.
      const again = keep(await connectDevice(url, known!));
      await again.publishAsync(deviceTopic(known!._id, 'health'), JSON.stringify({ heartRate: 71 }), {
        qos: 1,
      });
      expect(await countRows(built(), 'health_records', known!._id)).toBe(1);

      const off = await built().app.inject({
        method: 'POST',
        url: `/api/v1/admin/change-validity/${disabledSince!._id}`,
        headers: admin.auth,
        payload: { isValid: false },
      });
      expect(off.statusCode).toBe(200);
      await expect(connectDevice(url, disabledSince!)).rejects.toThrow(/Not authorized/);

      await client.publishAsync(deviceTopic(connected!._id, 'health'), JSON.stringify({ spo2: 97 }), {
        qos: 1,
      });
      expect(await countRows(built(), 'health_records', connected!._id)).toBe(1);
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

describe('verified credentials', () => {
  it('keeps a SHA-256 hash per device id, never the code, and matches only the same id and code', () => {
    const verified = new VerifiedCredentials();
    const [id, other] = [randomUUID(), randomUUID()];
    const code = randomBytes(32).toString('hex');
    verified.remember(id, code);
    const stored = [...verified.entries()];
    expect(stored).toEqual([[id, createHash('sha256').update(code).digest('base64')]]);
    expect(JSON.stringify(stored)).not.toContain(code);
    expect(verified.has(id, code)).toBe(true);
    expect(verified.has(id, randomBytes(32).toString('hex'))).toBe(false);
    expect(verified.has(other, code)).toBe(false);
    verified.forget(id);
    expect(verified.has(id, code)).toBe(false);
  });

  it('forgets the id verified least recently past its size', () => {
    const verified = new VerifiedCredentials(2);
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    verified.remember(a, 'code-a');
    verified.remember(b, 'code-b');
    verified.remember(a, 'code-a');
    verified.remember(c, 'code-c');
    expect([verified.has(a, 'code-a'), verified.has(b, 'code-b'), verified.has(c, 'code-c')]).toEqual([
      true,
      false,
      true,
    ]);
  });
});

describe('address keys', () => {
  it('keeps IPv4 addresses, unwraps IPv4-mapped ones, and counts IPv6 by its /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:DB8:0001:0002::9')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:3::9')).toBe('2001:db8:1:3::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('unknown')).toBe('unknown');
  });
});
