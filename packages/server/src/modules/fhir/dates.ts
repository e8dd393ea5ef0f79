/**
 * FHIR R4 date search (search.html#date, #prefix) for an Observation's effectiveDateTime, a
 * point in time. A searched value stands for the whole range its precision implies: `2026-11-24`
 * is that day, `2026-11` that month, `2026-11-24T10:00Z` that minute. Values without a time zone
 * are in UTC, the server's time zone. Times are microseconds since the epoch (bigint), as stored.
 */

/** A half-open range [from, to) of microseconds; null is unbounded on that side. */
export interface Interval {
  from: bigint | null;
  to: bigint | null;
}

/** The prefixes of R4 that mean something for a point in time; `ap` (approximately) is not offered. */
export const DATE_PREFIXES = ['eq', 'ne', 'gt', 'lt', 'ge', 'le', 'sa', 'eb'] as const;
type Prefix = (typeof DATE_PREFIXES)[number];

const US_PER_MS = 1000n;
const VALUE =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;

/** Milliseconds of a UTC calendar instant (Date.UTC reads years 0–99 as 1900–1999). */
function utcMs(year: number, month: number, day = 1, hour = 0, minute = 0, second = 0): number {
  const at = new Date(Date.UTC(2000, month, day, hour, minute, second));
  at.setUTCFullYear(year, month, day);
  return at.getTime();
}

/** The range a date or date-time value covers, or undefined when it is not one. */
export function rangeOf(written: string): { from: bigint; to: bigint } | undefined {
  const m = VALUE.exec(written);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, fraction, zone] = m;
  const year = Number(y);
  const month = mo === undefined ? 0 : Number(mo) - 1;
  const day = d === undefined ? 1 : Number(d);
  const [hour, minute, second] = [h, mi, s].map((v) => (v === undefined ? 0 : Number(v))) as [
    number,
    number,
    number,
  ];
  if (year < 1 || month > 11 || hour > 23 || minute > 59 || second > 59) return undefined;
  const local = new Date(utcMs(year, month, day, hour, minute, second));
  if (local.getUTCMonth() !== month || local.getUTCDate() !== day) return undefined;
  let offsetMinutes = 0;
  if (zone && zone !== 'Z') {
    const [zh, zm] = zone.slice(1).split(':').map(Number) as [number, number];
    if (zh > 14 || zm > 59) return undefined;
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (zh * 60 + zm);
  }
  const micros = fraction === undefined ? 0n : BigInt(fraction.slice(0, 6).padEnd(6, '0'));
  const from = BigInt(local.getTime() - offsetMinutes * 60_000) * US_PER_MS + micros;
  const width = (nextMs: number) => BigInt(nextMs - local.getTime()) * US_PER_MS;
  let span: bigint;
  if (mo === undefined) span = width(utcMs(year + 1, 0));
  else if (d === undefined) span = width(utcMs(year, month + 1));
  else if (h === undefined) span = width(utcMs(year, month, day + 1));
  else if (s === undefined) span = 60_000_000n;
  else if (fraction === undefined) span = 1_000_000n;
  else span = 10n ** BigInt(Math.max(0, 6 - fraction.length));
  return { from, to: from + span };
}

/** Where a point in time must lie to match `prefix` with a value covering [from, to). */
function matching(prefix: Prefix, { from, to }: { from: bigint; to: bigint }): Interval[] {
  switch (prefix) {
    case 'eq':
      return [{ from, to }];
    case 'ne':
      return [
        { from: null, to: from },
        { from: to, to: null },
      ];
    case 'gt':
    case 'sa':
      return [{ from: to, to: null }];
    case 'lt':
    case 'eb':
      return [{ from: null, to: from }];
    case 'ge':
      return [{ from, to: null }];
    case 'le':
      return [{ from: null, to }];
  }
}

// Unbounded sides as values beyond any instant, so that every comparison is one of bigints.
const LOWEST = -(2n ** 80n);
const HIGHEST = 2n ** 80n;
const closed = (i: Interval) => ({ from: i.from ?? LOWEST, to: i.to ?? HIGHEST });
const opened = (i: { from: bigint; to: bigint }): Interval => ({
  from: i.from === LOWEST ? null : i.from,
  to: i.to === HIGHEST ? null : i.to,
});

/** Sorted, disjoint, non-empty intervals covering the same points. */
function normalized(intervals: Interval[]): Interval[] {
  const sorted = intervals
    .map(closed)
    .filter((i) => i.from < i.to)
    .sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  const out: { from: bigint; to: bigint }[] = [];
  for (const i of sorted) {
    const last = out.at(-1);
    if (last && last.to >= i.from) last.to = last.to > i.to ? last.to : i.to;
    else out.push({ ...i });
  }
  return out.map(opened);
}

function intersect(a: Interval[], b: Interval[]): Interval[] {
  return normalized(
    a
      .map(closed)
      .flatMap((x) =>
        b
          .map(closed)
          .map((y) => opened({ from: x.from > y.from ? x.from : y.from, to: x.to < y.to ? x.to : y.to })),
      ),
  );
}

/** One `date` value: an optional prefix, then a value; commas separate alternatives (OR). */
function intervalsOf(value: string): Interval[] | string {
  const alternatives: Interval[] = [];
  for (const part of value.split(',')) {
    const prefixed = /^([a-z]{2})(.*)$/.exec(part);
    const prefix = prefixed ? prefixed[1]! : 'eq';
    if (!(DATE_PREFIXES as readonly string[]).includes(prefix))
      return `the date prefix ${prefix} is not supported (${DATE_PREFIXES.join(', ')})`;
    // A `+` of a time zone arrives as a space when the client did not encode it.
    const range = rangeOf((prefixed ? prefixed[2]! : part).replace(' ', '+'));
    if (!range) return `not a FHIR date or date-time: ${part}`;
    alternatives.push(...matching(prefix as Prefix, range));
  }
  return normalized(alternatives);
}

/** Date values per search, alternatives included: each adds a range to intersect and to query. */
export const MAX_DATE_VALUES = 20;

/** Every `date` parameter (AND), each a list of alternatives (OR): the points that match, or why not. */
export function dateSearch(values: readonly string[]): Interval[] | string {
  if (values.join(',').split(',').length > MAX_DATE_VALUES)
    return `a search takes at most ${MAX_DATE_VALUES} date values`;
  let matched: Interval[] = [{ from: null, to: null }];
  for (const value of values) {
    const intervals = intervalsOf(value);
    if (typeof intervals === 'string') return intervals;
    matched = intersect(matched, intervals);
  }
  return matched;
}

/** Microseconds since the epoch as ISO 8601 in UTC with six decimals (years past 9999 too). */
export function isoMicros(us: bigint): string {
  const ms = us >= 0n ? us / US_PER_MS : -((-us + US_PER_MS - 1n) / US_PER_MS);
  const at = new Date(Number(ms));
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const micros = String(Number(us - ms * US_PER_MS) + at.getUTCMilliseconds() * 1000).padStart(6, '0');
  return (
    `${pad(at.getUTCFullYear(), 4)}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}` +
    `T${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}:${pad(at.getUTCSeconds())}.${micros}Z`
  );
}

export const microsOf = (date: Date) => BigInt(date.getTime()) * US_PER_MS;
