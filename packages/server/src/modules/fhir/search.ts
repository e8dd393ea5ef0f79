import { type ContractRequestShape, type contracts, EXPORT_MAX_RANGE_DAYS } from '@vitalwatch/shared';
import { DEFAULT_COUNT, EXPORT_FORMATS, MAX_COUNT } from './capability.ts';
import { dateSearch, isoMicros, microsOf } from './dates.ts';
import { invalid } from './http.ts';
import { type ObservationKey, parseObservationId } from './observation-id.ts';
import type { ObservationPeriod } from './repository.ts';

const DAY_US = 86_400_000_000n;
const MAX_RANGE_US = BigInt(EXPORT_MAX_RANGE_DAYS) * DAY_US;
export type ExportQuery = ContractRequestShape<typeof contracts.fhir.export>['Querystring'];

/** A search's period: the ranges that match, inside finite bounds; the bounds the server chose. */
export interface SearchPeriod {
  /** Null when nothing can match (`date=ge2026-11-25&date=lt2026-11-24`). */
  period: Omit<ObservationPeriod, 'deviceId'> | null;
  /** `date` values that make the defaults explicit, for links that must mean the same later. */
  defaults: string[];
}

/**
 * The `date` parameters as ranges of at most 90 days: without a lower bound the period starts a
 * day before its end, without an upper bound it ends now.
 */
export function searchPeriod(dates: readonly string[], now = new Date()): SearchPeriod {
  const matched = dateSearch(dates);
  if (typeof matched === 'string') throw invalid(matched, 'date');
  if (matched.length === 0) return { period: null, defaults: [] };
  const defaults: string[] = [];
  let to = matched.at(-1)!.to;
  if (to === null) {
    to = microsOf(now);
    defaults.push(`lt${isoMicros(to)}`);
  }
  let from = matched[0]!.from;
  if (from === null) {
    from = to - DAY_US;
    defaults.push(`ge${isoMicros(from)}`);
  }
  if (to - from > MAX_RANGE_US)
    throw invalid(`a date range covers at most ${EXPORT_MAX_RANGE_DAYS} days`, 'date');
  const lower = from;
  const upper = to;
  const ranges = matched
    .map((r) => ({
      from: r.from === null || r.from < lower ? lower : r.from,
      to: r.to === null || r.to > upper ? upper : r.to,
    }))
    .filter((r) => r.from < r.to);
  return { period: ranges.length === 0 ? null : { from, to, ranges }, defaults };
}

/** `_count`: Observations per page. */
export function countOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_COUNT;
  const count = /^\d{1,4}$/.test(value) ? Number(value) : Number.NaN;
  if (!(count >= 1 && count <= MAX_COUNT))
    throw invalid(`_count must be a whole number from 1 to ${MAX_COUNT}`, '_count');
  return count;
}

/** `_cursor`: the id of the last Observation of the page before, of the same device. */
export function cursorOf(value: string | undefined, deviceId: string): ObservationKey | null {
  if (value === undefined) return null;
  const key = parseObservationId(value);
  if (!key || key.deviceId !== deviceId.toLowerCase())
    throw invalid('_cursor is not one this server gave for this search', '_cursor');
  return key;
}

/** `_outputFormat` of `$export`, with the abbreviations Bulk Data clients send. */
export function exportFormatOf(value: string | undefined): keyof typeof EXPORT_FORMATS {
  if (value === undefined || value === EXPORT_FORMATS.bundle || value === 'json') return 'bundle';
  if ([EXPORT_FORMATS.ndjson, 'application/ndjson', 'ndjson'].includes(value)) return 'ndjson';
  throw invalid(
    `_outputFormat must be ${EXPORT_FORMATS.bundle} or ${EXPORT_FORMATS.ndjson}`,
    '_outputFormat',
  );
}
