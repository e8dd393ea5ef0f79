import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseDevicePayload, parseDeviceTopic } from '../src/mqtt/device-messages.ts';
import { listenWithFallback } from '../src/mqtt/embedded-broker.ts';

describe('device topics and payloads', () => {
  it('accepts only devices/<id>/health and devices/<id>/alert', () => {
    expect(parseDeviceTopic('devices/abc/health')).toEqual({ deviceId: 'abc', kind: 'health' });
    expect(parseDeviceTopic('devices/abc/alert')).toEqual({ deviceId: 'abc', kind: 'alert' });
    for (const topic of ['devices/abc/other', 'devices//health', 'devices/a/b/health', 'x/abc/health', '']) {
      expect(parseDeviceTopic(topic)).toBeNull();
    }
  });

  it('parses one reading or a batch through the ingestion schema', () => {
    const one = parseDevicePayload('health', Buffer.from('{"heartRate":72,"messageId":"m1"}'));
    expect(one).toEqual({ ok: true, kind: 'health', readings: [{ heartRate: 72, messageId: 'm1' }] });
    const batch = parseDevicePayload('health', Buffer.from('[{"spo2":97},{"battery":50}]'));
    expect(batch.ok && batch.kind === 'health' && batch.readings).toHaveLength(2);
    const alert = parseDevicePayload('alert', Buffer.from('{"alertType":"FALL"}'));
    expect(alert).toEqual({ ok: true, kind: 'alert', events: [{ alertType: 'FALL' }] });
  });

  it('reports why a payload is malformed', () => {
    const cases: Array<[string, string]> = [
      ['not json', 'payload is not JSON'],
      ['{"heartRate":900}', 'heartRate must be between'],
      ['{}', 'at least one of'],
      ['[]', 'Batch is empty'],
      ['{"heartRate":70,"extra":1}', 'extra'],
    ];
    for (const [payload, reason] of cases) {
      const parsed = parseDevicePayload('health', Buffer.from(payload));
      expect(parsed.ok).toBe(false);
      expect(parsed.ok ? '' : parsed.reason).toContain(reason);
    }
    const tooBig = parseDevicePayload('health', Buffer.alloc(300 * 1024, 32));
    expect(tooBig).toEqual({ ok: false, reason: expect.stringContaining('payload over') });
    expect(parseDevicePayload('alert', Buffer.from('{"alertType":"fall"}')).ok).toBe(false);
  });
});

describe('embedded broker port', () => {
  const servers: Server[] = [];
  const server = () => {
    const s = createServer();
    servers.push(s);
    return s;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  });

  it('falls back to the next free port when the default is taken', async () => {
    const taken = await listenWithFallback(server(), 0, '127.0.0.1', false);
    const port = await listenWithFallback(server(), taken, '127.0.0.1', true);
    expect(port).not.toBe(taken);
    expect(port).toBeGreaterThan(0);
  });

  it('refuses clearly when an explicitly chosen port is taken', async () => {
    const taken = await listenWithFallback(server(), 0, '127.0.0.1', false);
    await expect(listenWithFallback(server(), taken, '127.0.0.1', false)).rejects.toThrow(
      `MQTT_PORT ${taken} is already in use on 127.0.0.1`,
    );
  });
});
