import { describe, expect, it } from 'vitest';
import { axisRange, axisText, chartBand, seriesExtent } from '@/features/health/utils/chart-axes.ts';
import { normalBandsPlugin } from '@/features/health/utils/normal-bands.ts';
import { needsOlderThanHour, openingRange } from '@/features/health/utils/opening-range.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const now = Date.UTC(2026, 10, 25, 12);

describe('the range the chart opens on', () => {
  it('a device sending for a minute opens on the last hour, once the server says nothing is older', () => {
    const newest = now - 10_000;
    expect(needsOlderThanHour(newest, now)).toBe(true);
    expect(openingRange({ newest, olderThanHour: null, now })).toBeNull();
    expect(openingRange({ newest, olderThanHour: false, now })).toBe('hour');
  });

  it('a device sending for longer opens on the last 24 hours', () => {
    expect(openingRange({ newest: now - MINUTE, olderThanHour: true, now })).toBe('day');
    expect(needsOlderThanHour(now - 2 * HOUR, now)).toBe(false);
    expect(openingRange({ newest: now - 2 * HOUR, olderThanHour: null, now })).toBe('day');
  });

  it('a device silent for days opens on the shortest range that still shows its last readings', () => {
    expect(openingRange({ newest: now - 3 * DAY, olderThanHour: null, now })).toBe('week');
    expect(openingRange({ newest: now - 8 * DAY, olderThanHour: null, now })).toBe('month');
    expect(openingRange({ newest: now - 90 * DAY, olderThanHour: null, now })).toBe('month');
  });

  it('a device that never sent opens on the usual 24 hours, asking nothing', () => {
    expect(needsOlderThanHour(null, now)).toBe(false);
    expect(openingRange({ newest: null, olderThanHour: null, now })).toBe('day');
  });
});

describe('the chart axes and normal bands', () => {
  it('keeps the spec axes (50–100) by default, widened to whole steps around data outside them', () => {
    expect(axisRange('spo2', { min: 90, max: 97 }, false, 'F')).toEqual({ min: 50, max: 100, step: 2 });
    expect(axisRange('heartRate', { min: 45, max: 131 }, false, 'F')).toEqual({
      min: 40,
      max: 140,
      step: 10,
    });
  });

  it('fits the clinical range to the data and the normal band: 97 → 90 % fills the axis', () => {
    const fitted = axisRange('spo2', { min: 90, max: 97 }, true, 'F');
    expect(fitted).toEqual({ min: 89, max: 100, step: 1 });
    // Five times the height of the same drop on the 50–100 axis.
    expect(50 / (fitted.max - fitted.min)).toBeGreaterThan(4);
    // Data inside the band: the band still shows whole, a step of margin below.
    expect(axisRange('heartRate', { min: 70, max: 80 }, true, 'F')).toEqual({ min: 55, max: 105, step: 5 });
    expect(axisRange('temperature', { min: 97.1, max: 101.3 }, true, 'F')).toEqual({
      min: 94.5,
      max: 102,
      step: 0.5,
    });
  });

  it('draws the shared normal ranges, temperature in the user’s unit', () => {
    expect(chartBand('heartRate', 'F')).toEqual({ min: 60, max: 100 });
    expect(chartBand('spo2', 'F')).toEqual({ min: 95, max: 100 });
    expect(chartBand('temperature', 'F')).toEqual({ min: 95, max: 98.4 });
    expect(chartBand('temperature', 'C')).toEqual({ min: 35, max: 36.9 });
    expect(axisText('temperature', chartBand('temperature', 'C'), 'C')).toBe('35–36.9 °C');
    expect(axisRange('temperature', null, false, 'C')).toEqual({ min: 34, max: 40, step: 1 });
  });

  it('takes a series’ extent from its lines and band, ignoring gaps', () => {
    const p = (y: number | null) => [{ x: 1, y }];
    expect(seriesExtent({ avg: p(95), min: p(90), max: p(null) })).toEqual({ min: 90, max: 95 });
    expect(seriesExtent({ avg: [], min: [], max: [] })).toBeNull();
  });

  it('paints each band between its values on its own axis, inside the plot area', () => {
    const rects: number[][] = [];
    const ctx = {
      save() {},
      restore() {},
      beginPath() {},
      moveTo() {},
      lineTo() {},
      stroke() {},
      setLineDash() {},
      fillRect: (...r: number[]) => rects.push(r),
    };
    // A y axis 50–100 over pixels 200 (bottom) to 0 (top).
    const scale = { getPixelForValue: (v: number) => 200 - (v - 50) * 4 };
    const chart = { ctx, chartArea: { top: 0, bottom: 200, left: 10, right: 110 }, scales: { y: scale } };
    const plugin = normalBandsPlugin(() => [
      { axis: 'y', min: 60, max: 100, color: '#ef4444' },
      { axis: 'y2', min: 95, max: 98.4, color: '#d97706' },
    ]);
    (plugin.beforeDatasetsDraw as unknown as (c: typeof chart) => void)(chart);
    expect(rects).toEqual([[10, 0, 100, 160]]);
  });
});
