import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { postAlert, postHealth, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, eventually, useTestApp } from './helpers.ts';

const TOKEN = 'metrics-token-for-tests-0123';
const [pglite] = dbTargets();

/** The value of one sample line (`name{labels} value`) in a Prometheus text exposition. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('/metrics', () => {
  const built = useTestApp(pglite!, { metricsToken: TOKEN, ingest: { offlineSweepIntervalMs: 0 } });
  const scrape = (authorization?: string) =>
    built().app.inject({
      method: 'GET',
      url: '/metrics',
      headers: authorization ? { authorization } : {},
    });

  it('answers only a scraper holding the token', async () => {
    for (const auth of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`, TOKEN]) {
      const res = await scrape(auth);
      expect(res.statusCode, String(auth)).toBe(401);
      expect(res.headers['www-authenticate']).toContain('Bearer');
    }
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toContain('vitalwatch_process_resident_memory_bytes');
  });

  it('names in the README every metric family it serves, and serves no gauge named like a counter', async () => {
    const text = (await scrape(`Bearer ${TOKEN}`)).body;
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const types = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => ({ name: m[1]!, type: m[2]! }));
    const own = types.filter(({ name }) => !/^vitalwatch_(process|nodejs)_/.test(name));
    expect(own.length).toBeGreaterThan(5);
    for (const { name } of own) expect(readme, name).toContain(`\`${name}`);
    expect(types.filter(({ name, type }) => type !== 'counter' && name.endsWith('_total'))).toEqual([]);
    expect(text).toContain('vitalwatch_nodejs_active_handles{');
  });

  it('counts readings stored, group commits and alerts raised by type', async () => {
    const admin = await createAdmin(built());
    const { device } = await userWithDevice(built(), admin, 'Metrics watch');
    const before = (await scrape(`Bearer ${TOKEN}`)).body;
    const stored = sample(before, 'vitalwatch_readings_stored_total') ?? 0;
    const commits = sample(before, 'vitalwatch_ingest_commit_rows_count') ?? 0;
    const sos = sample(before, 'vitalwatch_alerts_raised_total{type="SOS",priority="high"}') ?? 0;

    const readings = Array.from({ length: 5 }, (_, i) => ({ messageId: `m${i}`, spo2: 97, heartRate: 70 }));
    expect((await postHealth(built(), device.apiAuthCode, readings)).statusCode).toBe(202);
    // A resend is a duplicate: not counted again.
    expect((await postHealth(built(), device.apiAuthCode, readings)).statusCode).toBe(202);
    expect(
      (await postAlert(built(), device.apiAuthCode, { alertType: 'SOS', messageId: 'sos-1' })).statusCode,
    ).toBe(202);

    await eventually(async () => {
      const after = (await scrape(`Bearer ${TOKEN}`)).body;
      return (
        sample(after, 'vitalwatch_readings_stored_total') === stored + 5 &&
        sample(after, 'vitalwatch_ingest_commit_rows_count') === commits + 2 &&
        sample(after, 'vitalwatch_alerts_raised_total{type="SOS",priority="high"}') === sos + 1
      );
    });
    const after = (await scrape(`Bearer ${TOKEN}`)).body;
    expect(sample(after, 'vitalwatch_ingest_queue_rows')).toBe(0);
    expect(
      sample(after, 'vitalwatch_notifications_total{channel="push",outcome="ok"}'),
    ).toBeGreaterThanOrEqual(0);
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  const built = useTestApp(pglite!);
  it('does not exist', async () => {
    const res = await built().app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(404);
  });
});

describe('/docs', () => {
  const built = useTestApp(pglite!);
  it('renders the API reference from the OpenAPI document, ingestion and socket events included', async () => {
    const page = await built().app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger-ui');
    const doc = (await built().app.inject({ method: 'GET', url: '/docs/json' })).json<{
      info: { description: string };
      paths: Record<string, unknown>;
    }>();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/v1/ingest/health', '/api/v1/ingest/alert', '/api/v1/user/login']),
    );
    for (const words of ['healthDataUpdate', 'alertsUpdate', 'devices/<deviceId>/health', 'X-Api-Key'])
      expect(doc.info.description).toContain(words);
  });
});
