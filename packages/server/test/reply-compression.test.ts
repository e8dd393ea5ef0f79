import { brotliDecompressSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, dbTargets, type TestUser, useTestApp } from './helpers.ts';

/**
 * API replies are compressed for the client that asks. One of 64 kB to 1 MiB (a 24 h history is
 * 81 kB) is compressed in one call and sent with its length; through the plugin's stream it went
 * out in chunks, without one, and cost the server's thread 1.7 ms a reply.
 */
describe.each(dbTargets())('reply compression on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0, escalationIntervalMs: 0 } });
  let admin: TestUser;

  beforeAll(async () => {
    admin = await createAdmin(built());
    await built().ctx.db.execute(
      sql`insert into devices (device_name, activation_code, api_auth_code)
          select 'Compressed ' || n, 'CMP' || lpad(n::text, 5, '0'), md5('cmp' || n) || md5('c' || n)
          from generate_series(1, 400) n`,
    );
  });

  it('compresses a reply over 64 kB in one call, with its length, and it inflates to the JSON', async () => {
    const ask = (encoding?: string) =>
      built().app.inject({
        method: 'POST',
        url: '/api/v1/admin/all-devices',
        headers: { ...admin.auth, ...(encoding ? { 'accept-encoding': encoding } : {}) },
      });
    const plain = await ask();
    expect(plain.statusCode).toBe(200);
    expect(plain.rawPayload.byteLength).toBeGreaterThan(64 * 1024);
    expect(plain.rawPayload.byteLength).toBeLessThan(1024 * 1024);

    const compressed = await ask('br');
    expect(compressed.statusCode).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(Number(compressed.headers['content-length'])).toBe(compressed.rawPayload.byteLength);
    const inflated = brotliDecompressSync(compressed.rawPayload);
    expect(inflated.byteLength).toBe(plain.rawPayload.byteLength);
    expect(JSON.parse(inflated.toString()).data.devices.length).toBeGreaterThanOrEqual(400);
  });
});
