import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDevice, postHealth } from './device-helpers.ts';
import { createAdmin, dbTargets, type TestUser, useTestApp } from './helpers.ts';

const VITALS = ['spo2', 'heart_rate', 'temperature', 'battery'] as const;
const num = z.coerce.number().nullable();
const bucketRow = z.object({
  bucket: z.string(),
  readings: z.coerce.number(),
  ...Object.fromEntries(
    VITALS.flatMap((v) => [
      [`${v}_count`, z.coerce.number()],
      [`${v}_sum`, num],
      [`${v}_min`, num],
      [`${v}_max`, num],
    ]),
  ),
});

/** Rollups as kept, and as recomputed from the raw rows, for one device and width: they must agree. */
async function rollupsOf(
  db: ReturnType<ReturnType<typeof useTestApp>>['ctx']['db'],
  deviceId: string,
  width: 'minute' | 'hour',
) {
  const cols = VITALS.map((v) => sql.raw(`${v}_count, ${v}_sum, ${v}_min, ${v}_max`));
  const kept = await db.execute(
    sql`select bucket::text, readings, ${sql.join(cols, sql`, `)}
      from ${sql.raw(`health_rollups_${width}`)} where device_seq = (select seq from devices where id = ${deviceId}::uuid) order by bucket`,
  );
  const agg = VITALS.map((v) =>
    sql.raw(
      `count(${v}) as ${v}_count, coalesce(sum(${v}::float8), 0) as ${v}_sum, min(${v}) as ${v}_min, max(${v}) as ${v}_max`,
    ),
  );
  const recomputed = await db.execute(
    sql`select date_bin(${sql.raw(`interval '1 ${width}'`)}, recorded_at, timestamptz '2000-01-01T00:00:00Z')::text as bucket,
        count(*) as readings, ${sql.join(agg, sql`, `)}
      from health_records where device_seq = (select seq from devices where id = ${deviceId}::uuid) group by 1 order by 1`,
  );
  const rows = (r: unknown) => z.object({ rows: z.array(bucketRow) }).parse(r).rows;
  return { kept: rows(kept), recomputed: rows(recomputed) };
}

/** Sums of floats added in another order differ in the last bits: compare to 1e-9 relative. */
function expectSame(kept: z.infer<typeof bucketRow>[], recomputed: z.infer<typeof bucketRow>[]) {
  expect(kept.map((r) => r.bucket)).toEqual(recomputed.map((r) => r.bucket));
  kept.forEach((k, i) => {
    const r = recomputed[i]!;
    for (const [key, value] of Object.entries(k)) {
      const other = (r as Record<string, unknown>)[key];
      if (typeof value === 'number' && typeof other === 'number') {
        expect(Math.abs(value - other)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(other)));
      } else {
        expect(value).toEqual(other);
      }
    }
  });
}

describe.each(dbTargets())('minute and hour rollups on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0, escalationIntervalMs: 0 } });
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });

  it('equal a recomputation from the raw rows after random late, resent and out-of-order batches', async () => {
    const base = Date.now() - 3 * 3600_000;
    const reading = fc
      .record({
        second: fc.integer({ min: 0, max: 3 * 3600 - 1 }),
        messageId: fc.option(
          fc.integer({ min: 0, max: 40 }).map((n) => `m${n}`),
          { nil: undefined },
        ),
        spo2: fc.option(fc.integer({ min: 80, max: 100 }), { nil: undefined }),
        heartRate: fc.option(fc.double({ min: 40, max: 180, noNaN: true }), { nil: undefined }),
        temperature: fc.option(fc.double({ min: 94, max: 104, noNaN: true }), { nil: undefined }),
        battery: fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
      })
      // A reading must carry at least one vital (the ingest schema refuses an empty one).
      .filter((r) => [r.spo2, r.heartRate, r.temperature, r.battery].some((v) => v !== undefined));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(reading, { minLength: 1, maxLength: 30 }), { minLength: 1, maxLength: 8 }),
        async (batches) => {
          const device = await createDevice(built(), admin);
          // The same batches again, shuffled: every resent messageId must count once.
          for (const batch of [...batches, ...batches.slice().reverse()]) {
            const res = await postHealth(
              built(),
              device.apiAuthCode,
              batch.map(({ second, ...r }) => ({
                ...r,
                recordedAt: new Date(base + second * 1000).toISOString(),
              })),
            );
            expect(res.statusCode).toBe(202);
          }
          for (const width of ['minute', 'hour'] as const) {
            const { kept, recomputed } = await rollupsOf(built().ctx.db, device._id, width);
            expectSame(kept, recomputed);
          }
        },
      ),
      { numRuns: 12 },
    );
  });
});
