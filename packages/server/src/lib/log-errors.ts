import { DrizzleQueryError } from 'drizzle-orm';
import { stdSerializers } from 'pino';

type SerializedError = ReturnType<typeof stdSerializers.err>;

/** The failed queries in an error's cause chain (drizzle wraps the driver's error in one). */
function failedQueries(err: unknown): DrizzleQueryError[] {
  const found: DrizzleQueryError[] = [];
  const seen = new Set<unknown>();
  for (let e = err; e instanceof Error && !seen.has(e); e = e.cause) {
    seen.add(e);
    if (e instanceof DrizzleQueryError) found.push(e);
  }
  return found;
}

/**
 * pino's `err` serializer without the bound values of a failed query. Drizzle writes them into
 * the message ("Failed query: … params: …") and keeps them as `params`; they are API keys,
 * password hashes, push subscription keys and e-mail addresses, none of which may reach a log.
 * The SQL text stays: it holds placeholders, not values.
 */
export function serializeError(err: Error): SerializedError {
  const serialized = stdSerializers.err(err);
  const queries = failedQueries(err);
  if (queries.length === 0) return serialized;
  const scrub = (text: string) =>
    queries.reduce((t, q) => t.replaceAll(`\nparams: ${q.params}`, '\nparams: [redacted]'), text);
  serialized.message = scrub(serialized.message);
  serialized.stack = scrub(serialized.stack);
  if ('params' in serialized) serialized.params = '[redacted]';
  return serialized;
}
