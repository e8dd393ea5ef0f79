import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDevice, postHealth } from './device-helpers.ts';
import { createAdmin, dbTargets, logsOf, type TestUser, useTestApp } from './helpers.ts';

describe.each(dbTargets())('what the logs keep out on $name', (target) => {
  const built = useTestApp(target, { logLevel: 'error', ingest: { offlineSweepIntervalMs: 0 } });
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });

  it("a failed query is logged with its SQL but not its values: the device's API key stays out", async () => {
    const device = await createDevice(built(), admin);
    const db = built().ctx.db;
    let status = 0;
    let body = '';
    const logged = await logsOf(built(), async () => {
      await db.execute(sql`alter table devices rename to devices_away`);
      try {
        const res = await postHealth(built(), device.apiAuthCode, { heartRate: 70 });
        status = res.statusCode;
        body = res.body;
      } finally {
        await db.execute(sql`alter table devices_away rename to devices`);
      }
    });
    expect(status).toBe(500);
    expect(body).not.toMatch(/select|devices/i);
    expect(logged).toContain('Failed query: select');
    expect(logged).toContain('params: [redacted]');
    expect(logged).not.toContain(device.apiAuthCode);
  });
});

describe('request logs', () => {
  const [pglite] = dbTargets();
  const atInfo = useTestApp(pglite!, { logLevel: 'info' });
  const atDebug = useTestApp(pglite!, { logLevel: 'debug' });

  it('at the default level a request logs nothing, so the start-up banner (and its admin password) stays in view', async () => {
    const logged = await logsOf(atInfo(), async () => {
      for (let i = 0; i < 5; i++) await atInfo().app.inject({ method: 'GET', url: '/healthz' });
    });
    expect(logged).toBe('');
  });

  it('at debug each request is logged on arrival and on completion, with method, path, status and time', async () => {
    const logged = await logsOf(atDebug(), async () => {
      await atDebug().app.inject({ method: 'GET', url: '/healthz' });
    });
    expect(
      logged
        .trim()
        .split('\n')
        .filter((l) => l.includes('request completed')),
    ).toHaveLength(1);
    expect(logged).toContain('"url":"/healthz"');
    expect(logged).toContain('"statusCode":200');
  });
});
