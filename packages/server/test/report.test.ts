import { beforeAll, describe, expect, it } from 'vitest';
import { reportData } from '../src/modules/export/report-data.ts';
import { postAlert, postHealth, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, type TestUser, useTestApp } from './helpers.ts';
import { popplerRead } from './pdf-tools.ts';

const HOUR = 3_600_000;
/** Five days ago, 00:00 UTC: inside the raw retention, and every day below in the past. */
const base = Math.floor(Date.now() / (24 * HOUR)) * 24 * HOUR - 5 * 24 * HOUR;
const isoDay = (days: number) => new Date(base + days * 24 * HOUR).toISOString().slice(0, 10);
/** A wall-clock time in Asia/Kolkata (UTC+05:30 all year) `days` after the base day. */
const kolkata = (days: number, hours: number, minutes: number) =>
  new Date(base + days * 24 * HOUR + hours * HOUR + minutes * 60_000 - 5.5 * HOUR);

describe.each(dbTargets())('PDF report on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  let admin: TestUser;

  beforeAll(async () => {
    admin = await createAdmin(built());
  });

  const device = async (name?: string) => {
    const made = await userWithDevice(built(), admin, name);
    return { ...made, apiKey: made.device.apiAuthCode, deviceId: made.device._id };
  };

  it('counts readings on the limits of the normal ranges as in range (98.4 °F included)', async () => {
    const { apiKey, deviceId } = await device();
    const at = (i: number) => new Date(base + HOUR + i * 60_000).toISOString();
    const readings = [
      { temperature: 95, heartRate: 60, spo2: 95 },
      { temperature: 98.4, heartRate: 100, spo2: 100 },
      { temperature: 98.4, heartRate: 59.9, spo2: 94.9 },
      { temperature: 97.1, heartRate: 100.1, spo2: 97 },
      { temperature: 98.5, heartRate: 80, spo2: 99 },
      { temperature: 94.9, heartRate: 70, spo2: 98 },
    ].map((r, i) => ({ ...r, recordedAt: at(i) }));
    expect((await postHealth(built(), apiKey, readings)).statusCode).toBe(202);
    const data = await reportData(built().ctx.db, {
      deviceId,
      from: new Date(base),
      to: new Date(base + 24 * HOUR),
      timeZone: 'UTC',
    });
    // In range: 95, 98.4, 98.4, 97.1 °F; 60, 100, 80, 70 bpm; SpO2 95, 100, 97, 99, 98 %.
    expect(data.inRange).toEqual({
      temperature: { readings: 6, share: 4 / 6 },
      heart_rate: { readings: 6, share: 4 / 6 },
      spo2: { readings: 6, share: 5 / 6 },
    });
  });

  it('lists each day of the period in its time zone once, with exactly the readings of the period', async () => {
    const { apiKey, deviceId } = await device();
    const reading = (at: Date, heartRate: number) => ({ recordedAt: at.toISOString(), heartRate });
    const readings = [
      reading(kolkata(0, 10, 15), 50), // before the period, in the hour bucket of its start
      reading(kolkata(0, 10, 25), 61), // the period's first reading
      reading(kolkata(1, 0, 10), 62), // day 1, in the UTC hour that starts at 23:30 on day 0
      reading(kolkata(1, 12, 0), 63),
      reading(kolkata(1, 23, 40), 64), // day 1, in the UTC hour that ends at 00:30 on day 2
      reading(kolkata(3, 0, 5), 99), // after the period, in the hour bucket of its end
    ];
    expect((await postHealth(built(), apiKey, readings)).statusCode).toBe(202);
    const data = await reportData(built().ctx.db, {
      deviceId,
      from: kolkata(0, 10, 20),
      to: kolkata(3, 0, 0),
      timeZone: 'Asia/Kolkata',
    });
    const rows = data.days.map((d) => [
      d.day,
      d.readings,
      d.heart_rate_min,
      d.heart_rate_avg,
      d.heart_rate_max,
    ]);
    expect(rows).toEqual([
      [isoDay(0), 1, 61, 61, 61],
      [isoDay(1), 3, 62, 63, 64],
      [isoDay(2), 0, null, null, null],
    ]);
    expect(data.inRange.heart_rate.readings).toBe(4);
  });

  it('embeds its fonts, writes any Latin, Greek or Cyrillic name, and is tagged for screen readers', async () => {
    const name = 'Zoë Ωμέγα Юлия';
    const { user, apiKey, deviceId } = await device(`${name} watch ⌚`);
    const day = (h: number) => new Date(base + h * HOUR).toISOString();
    expect((await postHealth(built(), apiKey, [{ recordedAt: day(2), temperature: 98.4 }])).statusCode).toBe(
      202,
    );
    expect((await postAlert(built(), apiKey, { alertType: 'SOS', recordedAt: day(3) })).statusCode).toBe(202);

    const res = await built().app.inject({
      method: 'GET',
      url: `/api/v1/export/report/${deviceId}?from=${day(0)}&to=${day(24)}&timeZone=UTC`,
      headers: user.auth,
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const { text, fonts, info, structure } = await popplerRead(res.rawPayload);

    expect(fonts.length).toBeGreaterThan(0);
    expect(fonts.filter((f) => !f.embedded)).toEqual([]);
    expect(fonts.every((f) => f.name.includes('DejaVuSans'))).toBe(true);
    // The watch emoji is in no embedded font: a '?', not an empty box.
    expect(text).toContain(`Device: ${name} watch ?`);
    expect(text).toContain('SOS pressed');
    expect(text).toMatch(/Temperature \(°F\).*100 %/);

    expect(info).toMatch(/^Tagged:\s+yes$/m);
    expect(info).toMatch(/^PDF version:\s+1\.7$/m);
    expect(info).toMatch(new RegExp(`^Title:\\s+VitalWatch health report: ${name} watch \\?$`, 'm'));
    expect(info).toMatch(/^Subject:\s+SpO2, heart rate and temperature of /m);
    for (const element of ['Document', 'H1', 'H2', 'H3', 'P', 'Table', 'TR', 'TH', 'TD', 'Figure'])
      expect(structure, element).toMatch(new RegExp(`^\\s*${element}\\b`, 'm'));
    // Header cells say they head their column.
    expect(structure).toMatch(/^\s*TH:\n\s*\/Scope \/Column$/m);
  });
});
