import { z } from 'zod';

/** Every API response: `{ success, message, data? }`. */
export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.literal(true), message: z.string(), data });

export const messageOnly = z.object({ success: z.literal(true), message: z.string() });

export const fieldIssue = z.object({ path: z.string(), message: z.string() });
export type FieldIssue = z.infer<typeof fieldIssue>;

/** Every error response: `{ success: false, message, code, issues? }`. */
export const errorBody = z.object({
  success: z.literal(false),
  message: z.string(),
  code: z.string(),
  issues: z.array(fieldIssue).optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;

/** The instants a PostgreSQL timestamptz stores and JavaScript prints back as ISO 8601: years 1 to 9999, UTC. */
const EARLIEST_MS = Date.parse('0001-01-01T00:00:00Z');
const LATEST_MS = Date.parse('9999-12-31T23:59:59.999Z');
export const isStorableInstant = (ms: number): boolean => ms >= EARLIEST_MS && ms <= LATEST_MS;

/** ISO 8601 with an offset, within years 1 to 9999 once taken to UTC. */
export const isoDate = z
  .string()
  .datetime({ offset: true })
  .refine((v) => isStorableInstant(Date.parse(v)), 'Date must be between the years 1 and 9999');

/** The inclusive time range and page size of a query body: `from`, `to`, `limit` (1 to `maxLimit`). */
export const rangeQueryFields = (maxLimit: number) => ({
  from: isoDate.optional(),
  to: isoDate.optional(),
  limit: z
    .number()
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(maxLimit, `limit must be at most ${maxLimit}`)
    .optional(),
});

/** For `.refine` of a body with `rangeQueryFields`: `to` must not be before `from`. */
export const toNotBeforeFrom: [
  check: (b: { from?: string; to?: string }) => boolean,
  issue: { path: PropertyKey[]; message: string },
] = [
  (b) => !b.from || !b.to || Date.parse(b.from) <= Date.parse(b.to),
  { path: ['to'], message: 'to must not be before from' },
];

export const idParam = z.object({ id: z.string().min(1).max(64) });
