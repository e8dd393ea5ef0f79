/**
 * A time as a reply shows it: a `Date`, or the text PostgreSQL already wrote as `toISOString` would
 * (`isoTime`, db/json-text.ts), which hot lists select so that no row's times are parsed into dates
 * only to be written out again.
 */
export type IsoTime = Date | string;

/** The time as `toISOString` writes it. */
export const isoText = (t: IsoTime): string => (typeof t === 'string' ? t : t.toISOString());
