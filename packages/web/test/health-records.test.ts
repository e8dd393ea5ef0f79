import type { HealthHistory, HealthRecord } from '@vitalwatch/shared';
import { describe, expect, it } from 'vitest';
import { axisRange } from '@/features/health/utils/chart-axes.ts';
import {
  DOTS_UP_TO,
  type SeriesData,
  timeLabel,
  trendData,
  trendOptions,
} from '@/features/health/utils/chart-config.ts';
import { seriesOf, tileAverage, withLiveReading } from '@/features/health/utils/history.ts';
import { insertRecord, newerRecord } from '@/features/health/utils/records.ts';

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
});

const T0 = Date.UTC(2026, 0, 1, 12, 0);
const stat = (v: number, count = 1): [number, number, number, number] => [v, v, v, count];
const bucket = (minute: number, hr: number | null) => ({
  t: new Date(T0 + minute * 60_000).toISOString(),
  readings: 1,
  heartRate: hr === null ? null : stat(hr),
  spo2: stat(97),
  temperature: null,
  battery: null,
});
const history = (buckets: ReturnType<typeof bucket>[], bucketSeconds = 60): HealthHistory => ({
  resolution: bucketSeconds === 0 ? 'raw' : 'minute',
  bucketSeconds,
  from: new Date(T0).toISOString(),
  to: new Date(T0 + 3600_000).toISOString(),
  buckets,
  summary: {
    readings: buckets.length,
    heartRate: stat(70, buckets.length),
    spo2: stat(97, buckets.length),
    temperature: null,
    battery: null,
  },
});

describe('history for the chart', () => {
  it('draws each bucket as average with a min–max band, and breaks the line over a silence', () => {
    const s = seriesOf(
      history([bucket(0, 70), bucket(1, 72), bucket(40, 80), bucket(41, null)]),
      'heartRate',
    );
    expect(s.avg.map((p) => p.y)).toEqual([70, 72, null, 80]);
    expect(s.min).toHaveLength(4);
    // A point sits in the middle of its bucket; the gap point between the two sides.
    expect(s.avg[0]!.x).toBe(T0 + 30_000);
    expect(s.avg[2]!.x).toBeGreaterThan(s.avg[1]!.x);
  });

  it('adds a live reading to its bucket and to the averages; a new minute gets a new bucket', () => {
    const h = history([bucket(0, 70)]);
    const live = (second: number, heartRate: number): HealthRecord => ({
      _id: `r${second}`,
      device: 'd1',
      spo2: null,
      heartRate,
      temperature: null,
      battery: null,
      createdAt: new Date(T0 + second * 1000).toISOString(),
    });
    const same = withLiveReading(h, live(30, 80));
    expect(same.buckets).toHaveLength(1);
    expect(same.buckets[0]!.heartRate).toEqual([70, 75, 80, 2]);
    expect(same.summary.heartRate?.[3]).toBe(2);
    const next = withLiveReading(same, live(3700, 90));
    expect(next.buckets.map((b) => b.t)).toEqual([h.buckets[0]!.t, new Date(T0 + 3660_000).toISOString()]);
    expect(next.to).toBe(new Date(T0 + 3700_000).toISOString());
    expect(withLiveReading(h, live(-10, 99))).toBe(h);
  });

  it('tiles show the range average to one decimal, 0 without data', () => {
    expect(tileAverage([1, 96.66, 99, 3])).toBe(96.7);
    expect(tileAverage(null)).toBe(0);
  });
});

describe('Health Trends chart (spec 9)', () => {
  it('labels time as hour:minute, with the day for multi-day periods', () => {
    const ms = new Date(2026, 2, 7, 9, 5).getTime();
    expect(timeLabel(ms, false)).toBe('09:05');
    expect(timeLabel(ms, true)).toBe('Mar 7 09:05');
  });

  const one = (y: number): SeriesData => ({ avg: [{ x: 1, y }], min: [{ x: 1, y }], max: [{ x: 1, y }] });
  const none: SeriesData = { avg: [], min: [], max: [] };
  const line = (data: ReturnType<typeof trendData>, label: string) =>
    data.datasets.find((d) => d.label === label)!;

  it('draws heart rate red and SpO2 blue with tension 0.4 over a band, smaller points on mobile', () => {
    const desktop = trendData({ heartRate: one(70), spo2: one(97), temperature: null }, false, '°F');
    const hr = line(desktop, 'Heart Rate (BPM)');
    expect(hr).toMatchObject({ borderColor: '#ef4444', tension: 0.4, yAxisID: 'y', spanGaps: false });
    expect(line(desktop, 'SpO2 (%)')).toMatchObject({ borderColor: '#3b82f6', tension: 0.4, yAxisID: 'y1' });
    expect(desktop.datasets.filter((d) => d.label === 'Heart Rate (BPM) range').map((d) => d.fill)).toEqual([
      false,
      '-1',
    ]);
    const mobile = line(
      trendData({ heartRate: none, spo2: none, temperature: null }, true, '°F'),
      'Heart Rate (BPM)',
    );
    expect(Number(mobile.pointRadius)).toBeLessThan(Number(hr.pointRadius));
  });

  it('draws only the line when there are too many points for dots', () => {
    const many = Array.from({ length: DOTS_UP_TO + 1 }, (_, i) => ({ x: i, y: 70 }));
    const s = (avg: typeof many): SeriesData => ({ avg, min: avg, max: avg });
    expect(
      line(trendData({ heartRate: s(many), spo2: none, temperature: null }, false, '°F'), 'Heart Rate (BPM)')
        .pointRadius,
    ).toBe(0);
    expect(
      line(
        trendData({ heartRate: s(many.slice(1)), spo2: none, temperature: null }, false, '°F'),
        'Heart Rate (BPM)',
      ).pointRadius,
    ).toBeGreaterThan(0);
  });

  const window = { from: 1000, to: 5000 };
  /** The spec's axes, as the chart has them with no clinical fit. */
  const spec = {
    axes: {
      heartRate: axisRange('heartRate', null, false, 'F'),
      spo2: axisRange('spo2', null, false, 'F'),
      temperature: null,
    },
    clinical: false,
    temperatureSymbol: '°F',
  };

  it('has the spec axes, 8 x labels, animations off, x-only pan and wheel zoom on desktop; x spans the window', () => {
    const o = trendOptions({ theme: 'light', mobile: false, withDay: false, window, ...spec });
    expect(o.scales?.x).toMatchObject({ min: 1000, max: 5000 });
    expect(o.animation).toBe(false);
    expect(o.scales?.y).toMatchObject({ suggestedMin: 50, suggestedMax: 100, ticks: { stepSize: 10 } });
    expect(o.scales?.y1).toMatchObject({
      suggestedMin: 50,
      suggestedMax: 100,
      ticks: { stepSize: 2, autoSkip: false },
    });
    // Every tick kept; labels on each tenth value, 100 included.
    const ticks = o.scales?.y1?.ticks as { callback: (v: number) => string } | undefined;
    expect([50, 52, 90, 98, 100].map((v) => ticks?.callback(v))).toEqual(['50', '', '90', '', '100']);
    expect(o.scales?.x?.ticks).toMatchObject({ count: 8, maxTicksLimit: 8 });
    expect(o.scales?.x?.title).toMatchObject({ display: true });
    expect(o.plugins?.zoom).toMatchObject({
      pan: { enabled: true, mode: 'x', threshold: 10 },
      zoom: { mode: 'x', wheel: { enabled: true, speed: 0.1 }, pinch: { enabled: true } },
    });
  });

  it('on mobile: 6 x labels, smaller fonts, no axis titles, no wheel zoom but pinch', () => {
    const o = trendOptions({ theme: 'dark', mobile: true, withDay: false, window, ...spec });
    const desktop = trendOptions({ theme: 'dark', mobile: false, withDay: false, window, ...spec });
    expect(o.scales?.x?.ticks).toMatchObject({ count: 6, maxTicksLimit: 6 });
    expect(o.scales?.x?.title).toMatchObject({ display: false });
    expect(o.scales?.y?.title).toMatchObject({ display: false });
    expect(o.plugins?.zoom?.zoom).toMatchObject({ wheel: { enabled: false }, pinch: { enabled: true } });
    const font = (opts: typeof o) => (opts.scales!.x!.ticks as { font: { size: number } }).font.size;
    expect(font(o)).toBeLessThan(font(desktop));
  });

  it('follows the page theme', () => {
    const light = trendOptions({ theme: 'light', mobile: false, withDay: false, window, ...spec });
    const dark = trendOptions({ theme: 'dark', mobile: false, withDay: false, window, ...spec });
    expect(light.scales?.x?.ticks?.color).not.toBe(dark.scales?.x?.ticks?.color);
    expect(light.scales?.x?.grid?.color).not.toBe(dark.scales?.x?.grid?.color);
  });
});
