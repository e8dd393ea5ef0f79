import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from '../errors.ts';

const NUL_MESSAGE = 'Text must not contain NUL (\\u0000) characters';

/** Where the first string holding U+0000 sits in a value (`user.email`, `0.name`), if any. */
function nulPath(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = nulPath(item, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * JSON bodies are parsed as Fastify does by default (prototype poisoning refused); one whose
 * validated value still holds U+0000 in a string is a 400. PostgreSQL cannot store that
 * character in text, so the query would otherwise fail with a 500 wherever a schema let it in.
 * JSON carries it only as the escape `\u0000`, so only such bodies are looked at, and only after
 * validation, so a field whose own schema refuses control characters says so in its own words.
 */
export function refuseNulInJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  const suspects = new WeakSet<FastifyRequest>();
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, raw, done) => {
    const body = String(raw);
    if (body.includes('\\u0000')) suspects.add(request);
    parse(request, body, done);
  });
  // Not async: on every request, most with nothing to look at.
  app.addHook('preHandler', (request, _reply, done) => {
    const path = suspects.has(request) ? nulPath(request.body) : undefined;
    done(path === undefined ? undefined : badRequest(NUL_MESSAGE, [{ path, message: NUL_MESSAGE }]));
  });
}
