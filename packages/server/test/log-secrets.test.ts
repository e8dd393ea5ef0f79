import { sql } from 'drizzle-orm';
import { symbols } from 'pino';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createDevice, postHealth } from './device-helpers.ts';
import { createAdmin, dbTargets, type TestUser, useTestApp } from './helpers.ts';

describe.each(dbTargets())('what the logs keep out on $name', (target) => {
  const built = useTestApp(target, { logLevel: 'error', ingest: { offlineSweepIntervalMs: 0 } });
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });

  /** Everything the app logs while `work` runs (the logger's own stream, not printed). */
  async function logsOf(work: () => Promise<void>): Promise<string> {
    const stream: unknown = Reflect.get(built().app.log, symbols.streamSym);
    if (typeof stream !== 'object' || stream === null || !('write' in stream))
      throw new Error('no log stream');
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

  it("a failed query is logged with its SQL but not its values: the device's API key stays out", async () => {
    const device = await createDevice(built(), admin);
    const db = built().ctx.db;
    let status = 0;
    let body = '';
    const logged = await logsOf(async () => {
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
