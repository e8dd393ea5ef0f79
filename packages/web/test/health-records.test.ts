import type { HealthRecord } from '@vitalwatch/shared';
import { describe, expect, it } from 'vitest';
import { DOTS_UP_TO, timeLabel, trendData, trendOptions } from '../src/features/health/utils/chart-config.ts';
import { average, insertRecord, newerRecord, seriesOf } from '../src/features/health/utils/records.ts';

const rec = (id: string, minute: number, values: Partial<HealthRecord> = {}): HealthRecord => ({
  _id: id,
  device: 'd1',
  spo2: 97,
  heartRate: 70,
  temperature: 97.5,
  battery: 80,
  createdAt: new Date(Date.UTC(2026, 0, 1, 12, minute)).toISOString(),
  ...values,
});

describe('health records', () => {
  it('inserts newest first at the right place, replaces by id and caps the list', () => {
    const list = [rec('c', 30), rec('a', 10)];
    expect(insertRecord(list, rec('d', 40), 10).map((r) => r._id)).toEqual(['d', 'c', 'a']);
    expect(insertRecord(list, rec('b', 20), 10).map((r) => r._id)).toEqual(['c', 'b', 'a']);
    expect(insertRecord(list, rec('z', 5), 10).map((r) => r._id)).toEqual(['c', 'a', 'z']);
    expect(insertRecord(list, rec('a', 10, { heartRate: 99 }), 10)[1]!.heartRate).toBe(99);
    expect(insertRecord(list, rec('d', 40), 2).map((r) => r._id)).toEqual(['d', 'c']);
  });

  it('keeps the newer recording as latest, whatever arrives last', () => {
    expect(newerRecord(rec('new', 30), rec('late', 10))._id).toBe('new');
    expect(newerRecord(rec('old', 10), rec('new', 30))._id).toBe('new');
    expect(newerRecord(null, rec('first', 1))._id).toBe('first');
  });

  it('averages present values to one decimal, 0 without data', () => {
    expect(average([rec('a', 1, { heartRate: 70 }), rec('b', 2, { heartRate: 75 })], 'heartRate')).toBe(72.5);
    expect(average([rec('a', 1, { spo2: 97 }), rec('b', 2, { spo2: null })], 'spo2')).toBe(97);
    expect(
      average([rec('a', 1, { spo2: 96 }), rec('b', 2, { spo2: 97 }), rec('c', 3, { spo2: 97 })], 'spo2'),
    ).toBe(96.7);
    expect(average([], 'heartRate')).toBe(0);
  });

  it('draws oldest first and skips missing values', () => {
    const newestFirst = [
      rec('c', 3, { heartRate: 90 }),
      rec('b', 2, { heartRate: null }),
      rec('a', 1, { heartRate: 60 }),
    ];
    const points = seriesOf(newestFirst, 'heartRate');
    expect(points.map((p) => p.y)).toEqual([60, 90]);
    expect(points[0]!.x).toBeLessThan(points[1]!.x);
  });
});

describe('Health Trends chart (spec 9)', () => {
  it('labels time as hour:minute, with the day for multi-day periods', () => {
    const ms = new Date(2026, 2, 7, 9, 5).getTime();
    expect(timeLabel(ms, false)).toBe('09:05');
    expect(timeLabel(ms, true)).toBe('07/03 09:05');
  });

  it('draws heart rate red and SpO2 blue with tension 0.4, smaller points on mobile', () => {
    const desktop = trendData([{ x: 1, y: 70 }], [{ x: 1, y: 97 }], false);
    const [hr, spo2] = desktop.datasets;
    expect(hr).toMatchObject({ borderColor: '#ef4444', tension: 0.4, yAxisID: 'y' });
    expect(spo2).toMatchObject({ borderColor: '#3b82f6', tension: 0.4, yAxisID: 'y1' });
    const mobile = trendData([], [], true).datasets[0]!;
    expect(Number(mobile.pointRadius)).toBeLessThan(Number(hr!.pointRadius));
  });

  it('draws only the line when there are too many points for dots', () => {
    const many = Array.from({ length: DOTS_UP_TO + 1 }, (_, i) => ({ x: i, y: 70 }));
    expect(trendData(many, [], false).datasets[0]!.pointRadius).toBe(0);
    expect(trendData(many.slice(1), [], false).datasets[0]!.pointRadius).toBeGreaterThan(0);
  });

  it('has the spec axes, 8 x labels, animations off, x-only pan and wheel zoom on desktop', () => {
    const o = trendOptions({ theme: 'light', mobile: false, withDay: false });
    expect(o.animation).toBe(false);
    expect(o.scales?.y).toMatchObject({ suggestedMin: 50, suggestedMax: 100, ticks: { stepSize: 10 } });
    expect(o.scales?.y1).toMatchObject({ suggestedMin: 50, suggestedMax: 100, ticks: { stepSize: 2 } });
    expect(o.scales?.x?.ticks).toMatchObject({ count: 8, maxTicksLimit: 8 });
    expect(o.scales?.x?.title).toMatchObject({ display: true });
    expect(o.plugins?.zoom).toMatchObject({
      pan: { enabled: true, mode: 'x', threshold: 10 },
      zoom: { mode: 'x', wheel: { enabled: true, speed: 0.1 }, pinch: { enabled: true } },
    });
    expect(o.plugins?.decimation).toMatchObject({ enabled: true, algorithm: 'lttb' });
  });

  it('on mobile: 6 x labels, smaller fonts, no axis titles, no wheel zoom but pinch', () => {
    const o = trendOptions({ theme: 'dark', mobile: true, withDay: false });
    const desktop = trendOptions({ theme: 'dark', mobile: false, withDay: false });
    expect(o.scales?.x?.ticks).toMatchObject({ count: 6, maxTicksLimit: 6 });
    expect(o.scales?.x?.title).toMatchObject({ display: false });
    expect(o.scales?.y?.title).toMatchObject({ display: false });
    expect(o.plugins?.zoom?.zoom).toMatchObject({ wheel: { enabled: false }, pinch: { enabled: true } });
    const font = (opts: typeof o) => (opts.scales!.x!.ticks as { font: { size: number } }).font.size;
    expect(font(o)).toBeLessThan(font(desktop));
  });

  it('follows the page theme', () => {
    const light = trendOptions({ theme: 'light', mobile: false, withDay: false });
    const dark = trendOptions({ theme: 'dark', mobile: false, withDay: false });
    expect(light.scales?.x?.ticks?.color).not.toBe(dark.scales?.x?.ticks?.color);
    expect(light.scales?.x?.grid?.color).not.toBe(dark.scales?.x?.grid?.color);
  });
});
