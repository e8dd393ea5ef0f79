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
