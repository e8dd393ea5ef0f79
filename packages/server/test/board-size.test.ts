import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { insertDevice } from './admin-helpers.ts';
import { dbTargets, signup, useTestApp, verifyEmail } from './helpers.ts';

const DEVICES = 200;
/**
 * Issue 25 asks 300 kB of JSON for 1,000 devices (300 bytes a device). This snapshot was 577 bytes
 * a device with the SpO2 sparkline, one-decimal means and whole alert records, then 352; leaving
 * out what is at its usual value (default limits, no alerts, no teams, active) and the reading's
 * id brings it under 300.
 */
const BYTES_PER_DEVICE = 300;

describe.each(dbTargets())('the board snapshot stays small on $name', (target) => {
  const built = useTestApp(target);

  it(`answers ${DEVICES} devices with a full last hour and an alert on one in ten within 300 bytes a device`, async () => {
    const carer = await signup(built());
    // A carer who can be reached (a verified e-mail): no tile carries the no-working-channel flag.
    await verifyEmail(built(), carer);
    const { db } = built().ctx;
    for (let i = 0; i < DEVICES; i++) await insertDevice(db, [carer.user._id]);
    // A full hour of minute rollups and the newest reading of each device, as ingest leaves them.
    await db.execute(sql`
      insert into health_rollups_minute (bucket, device_seq, readings, heart_rate_sum, heart_rate_count, spo2_sum, spo2_count)
      select date_trunc('minute', now()) - make_interval(mins => m), d.seq, 60, 60 * (61.37 + m % 17), 60, 60 * (95.73 + m % 3), 60
      from devices d cross join generate_series(1, 60) m where d.id in (select device_id from device_users where user_id = ${carer.user._id}::uuid)`);
    await db.execute(sql`
      insert into health_records (recorded_at, device_seq, heart_rate, spo2, temperature, battery, message_id)
      select now() - interval '5 seconds', d.seq, 72, 97, 36.8, 81, 'size-' || d.seq
      from devices d where d.id in (select device_id from device_users where user_id = ${carer.user._id}::uuid)`);
    await db.execute(sql`
      insert into alerts (device_id, alert_type, alert_title, alert_message, priority, recorded_at)
      select d.id, 'HEART_RATE_HIGH', 'High heart rate',
        'Heart rate 131 bpm is above the limit of 120 bpm (critical above 140 bpm)', 'medium', now()
      from devices d where d.seq % 10 = 0
        and d.id in (select device_id from device_users where user_id = ${carer.user._id}::uuid)`);

    const res = await built().app.inject({
      method: 'GET',
      url: '/api/v1/board/snapshot',
      headers: carer.auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.devices).toHaveLength(DEVICES);
    const bytes = Buffer.byteLength(res.body);
    console.info(
      `board snapshot: ${DEVICES} devices, ${bytes} bytes, ${Math.round(bytes / DEVICES)} a device`,
    );
    expect(bytes).toBeLessThanOrEqual(DEVICES * BYTES_PER_DEVICE);
  });
});
