import { normalBand, TEMPERATURE_SYMBOLS, type TemperatureUnit, temperatureIn } from '@vitalwatch/shared';
import type { Series } from './history.ts';

/** The vitals the trends chart can draw. */
export type ChartVital = 'heartRate' | 'spo2' | 'temperature';

export interface AxisRange {
  min: number;
  max: number;
  /** Between ticks. */
  step: number;
}

/** The chart's value axes: heart rate and SpO2 always, temperature when it is drawn. */
export interface ChartAxes {
  heartRate: AxisRange;
  spo2: AxisRange;
  temperature: AxisRange | null;
}

interface AxisRule {
  /** The axis spans at least this (widened to the data). */
  min: number;
  max: number;
  step: number;
  /** Tick step when fitted to the clinical range. */
  clinicalStep: number;
  /** Never beyond these (SpO2 is a percentage). */
  floor: number;
  ceiling: number;
}

/**
 * Spec section 5: heart-rate axis suggested 50 to 100 step 10, SpO2 axis suggested 50 to 100 step
 * 2. The spec has no temperature axis; its default spans mild hypothermia to high fever (NEWS2
 * scores ≤ 35.0 °C and ≥ 39.1 °C as 3 and 2), in whole degrees of the user's unit.
 */
function axisRule(vital: ChartVital, unit: TemperatureUnit): AxisRule {
  if (vital === 'heartRate') return { min: 50, max: 100, step: 10, clinicalStep: 5, floor: 0, ceiling: 300 };
  if (vital === 'spo2') return { min: 50, max: 100, step: 2, clinicalStep: 1, floor: 0, ceiling: 100 };
  return unit === 'F'
    ? { min: 93, max: 104, step: 1, clinicalStep: 0.5, floor: 77, ceiling: 113 }
    : { min: 34, max: 40, step: 1, clinicalStep: 0.5, floor: 25, ceiling: 45 };
}

/** The normal range of a vital in the unit the chart draws it in (the shared NORMAL_RANGES). */
export function chartBand(vital: ChartVital, unit: TemperatureUnit): { min: number; max: number } {
  const band = normalBand(vital);
  if (vital !== 'temperature') return { min: band.min, max: band.max };
  return { min: temperatureIn(band.min, unit), max: temperatureIn(band.max, unit) };
}

/** The lowest and highest value a series draws (its band's edges included), or null when it has none. */
export function seriesExtent(s: Series): { min: number; max: number } | null {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const p of [...s.min, ...s.avg, ...s.max]) {
    if (p.y === null) continue;
    min = Math.min(min, p.y);
    max = Math.max(max, p.y);
  }
  return min <= max ? { min, max } : null;
}

/** To two decimals: half-degree steps stay 35.5, not 35.499999. */
const tidy = (v: number) => Math.round(v * 100) / 100;
const down = (v: number, step: number) => tidy(Math.floor(v / step + 1e-9) * step);
const up = (v: number, step: number) => tidy(Math.ceil(v / step - 1e-9) * step);

/**
 * A vital's y axis. By default the spec's span, widened to whole steps around any value outside
 * it (what Chart.js does with a suggested range). `clinical`: fitted to the data and the normal
 * band, a step of margin either side, so a fall from 97 to 90 % fills the chart rather than a few
 * pixels of a 50–100 axis.
 */
export function axisRange(
  vital: ChartVital,
  data: { min: number; max: number } | null,
  clinical: boolean,
  unit: TemperatureUnit,
): AxisRange {
  const rule = axisRule(vital, unit);
  const clamp = (v: number) => Math.min(rule.ceiling, Math.max(rule.floor, v));
  if (!clinical) {
    return {
      min: clamp(Math.min(rule.min, data ? down(data.min, rule.step) : rule.min)),
      max: clamp(Math.max(rule.max, data ? up(data.max, rule.step) : rule.max)),
      step: rule.step,
    };
  }
  const band = chartBand(vital, unit);
  const step = rule.clinicalStep;
  const lo = Math.min(band.min, data?.min ?? band.min);
  const hi = Math.max(band.max, data?.max ?? band.max);
  return { min: clamp(tidy(down(lo, step) - step)), max: clamp(tidy(up(hi, step) + step)), step };
}

/** "50–100 BPM", "89–100 %", "93–104 °F": an axis in words. */
export function axisText(
  vital: ChartVital,
  axis: { min: number; max: number },
  unit: TemperatureUnit,
): string {
  const suffix = vital === 'heartRate' ? ' BPM' : vital === 'spo2' ? ' %' : ` ${TEMPERATURE_SYMBOLS[unit]}`;
  return `${axis.min}–${axis.max}${suffix}`;
}
