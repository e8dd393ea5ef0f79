import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { postAlert, postHealth, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, eventually, useTestApp } from './helpers.ts';

const TOKEN = 'metrics-token-for-promtool-01';
const PROMTOOL = '/usr/bin/promtool';
const [pglite] = dbTargets();

if (process.env.CI === 'true' && !existsSync(PROMTOOL))
  throw new Error(`CI=true but promtool is not installed at ${PROMTOOL} (Debian package prometheus)`);

/** Libuv requests (fs, DNS) by type: only while one is pending, so usually none. */
const MOMENTARY = new Set(['vitalwatch_nodejs_active_requests']);

/** Metric families (`# TYPE name kind`) with no sample line in an exposition, momentary ones aside. */
function familiesWithoutSamples(text: string): string[] {
  const families = [...text.matchAll(/^# TYPE (\S+) \S+$/gm)]
    .map((m) => m[1]!)
    .filter((name) => !MOMENTARY.has(name));
  const lines = text.split('\n').filter((l) => l && !l.startsWith('#'));
  const sampled = new Set(lines.map((l) => l.split(/[{ ]/)[0]!.replace(/_(bucket|sum|count)$/, '')));
  return families.filter((name) => !sampled.has(name));
}

describe.skipIf(!existsSync(PROMTOOL))('/metrics passes promtool check metrics', () => {
  const built = useTestApp(pglite!, { metricsToken: TOKEN, ingest: { offlineSweepIntervalMs: 0 } });

  it('has no lint finding once every metric family has samples', async () => {
    const admin = await createAdmin(built());
    const { device } = await userWithDevice(built(), admin, 'Promtool watch');
    expect((await postHealth(built(), device.apiAuthCode, { spo2: 97, heartRate: 70 })).statusCode).toBe(202);
    expect((await postAlert(built(), device.apiAuthCode, { alertType: 'SOS' })).statusCode).toBe(202);

    const address = await built().app.listen({ host: '127.0.0.1', port: 0 });
    const scrape = async () => {
      const res = await fetch(`${address}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      return res.text();
    };
    await eventually(async () => familiesWithoutSamples(await scrape()).length === 0);
    const text = await scrape();
    const check = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(`${check.stdout}${check.stderr}`).toBe('');
    expect(check.status).toBe(0);
  });
});
