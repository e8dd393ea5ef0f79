import type { FastifyInstance } from 'fastify';

/** What CORS_ORIGINS opens to other origins: the HTTP API and FHIR (Socket.IO reads it itself). */
const CORS_PATHS = /^\/(api|fhir)\//;
/** People send a bearer token and JSON, devices their API code. */
const ALLOW_HEADERS = 'Authorization, Content-Type, X-Api-Key';
/** Headers a script on another origin may read besides the safelisted ones. */
const EXPOSE_HEADERS = 'Retry-After, WWW-Authenticate, Allow, Content-Disposition';
/** How long a browser may reuse a preflight's answer (Chromium keeps it 2 hours at most). */
const MAX_AGE_SECONDS = 7200;

/**
 * CORS for the origins in CORS_ORIGINS, on the API and FHIR paths; without any, the browser's
 * same-origin rule stands (no CORS header is ever sent). A preflight from an allowed origin is
 * answered 204 with the methods its path has (an unknown path's goes on to 404); a request from another origin gets no CORS header.
 * Tokens travel in a header, never in a cookie, so credentials are not allowed.
 */
export function allowCorsOrigins(app: FastifyInstance, origins: string[]): void {
  if (origins.length === 0) return;
  const allowed = new Set(origins);
  app.addHook('onRequest', async (request, reply) => {
    if (!CORS_PATHS.test(request.url)) return;
    // The answer depends on Origin: a cache must not hand one origin's answer to another.
    reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    if (origin === undefined || !allowed.has(origin)) return;
    reply.header('access-control-allow-origin', origin);
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
      const methods = request.server.allowedMethods(request.url);
      if (methods.length > 0)
        return reply
          .code(204)
          .headers({
            'access-control-allow-methods': methods.join(', '),
            'access-control-allow-headers': ALLOW_HEADERS,
            'access-control-max-age': String(MAX_AGE_SECONDS),
          })
          .send();
    }
    reply.header('access-control-expose-headers', EXPOSE_HEADERS);
  });
}
