import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../src/errors.ts';
import { domainErrorHeaders, errorHandler } from '../src/http/error-handler.ts';
import { trackRouteMethods, unmatchedRoute } from '../src/http/route-methods.ts';

/** A server shaped like ours: the root answers in the API's envelope, `/fhir` in its own body. */
async function server(): Promise<FastifyInstance> {
  const app = Fastify();
  app.setErrorHandler(errorHandler);
  app.addHook('onError', domainErrorHeaders);
  trackRouteMethods(app);
  app.get('/*', async () => 'the web app');
  app.get('/api/items/:id/$export', async () => 'export');
  app.post('/api/range/:from-:to', async () => 'range');
  app.delete('/api/items/:id', async () => 'deleted');
  app.get('/docs/*', async () => 'docs');
  await app.register(
    async (fhir) => {
      fhir.setErrorHandler((err, _request, reply) =>
        reply
          .code(err instanceof DomainError && err.code === 'methodNotAllowed' ? 405 : 500)
          .send({ resourceType: 'OperationOutcome', issue: [{ code: 'not-supported' }] }),
      );
      fhir.setNotFoundHandler((request) => {
        throw unmatchedRoute(request);
      });
      fhir.get('/metadata', async () => ({ resourceType: 'CapabilityStatement' }));
    },
    { prefix: '/fhir' },
  );
  app.setNotFoundHandler((request) => {
    throw unmatchedRoute(request);
  });
  await app.ready();
  return app;
}

describe('405 with Allow from the route table', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await server();
  });
  afterAll(() => app.close());

  it('knows parameters, "$" in a path, several parameters in a segment and wildcards', async () => {
    expect(app.allowedMethods('/api/items/42/$export?x=1')).toEqual(['GET', 'HEAD']);
    expect(app.allowedMethods('/api/items/42')).toEqual(['DELETE']);
    expect(app.allowedMethods('/api/range/1-2')).toEqual(['POST']);
    expect(app.allowedMethods('/docs/static/index.css')).toEqual(['GET', 'HEAD']);
    expect(app.allowedMethods('/api/items/42/export')).toEqual([]);
  });

  it("does not count the web app's catch-all: an unknown path stays 404", async () => {
    const res = await app.inject({ method: 'POST', url: '/some/page' });
    expect(res.statusCode).toBe(404);
    expect(res.headers.allow).toBeUndefined();
  });

  it('lets a scope with its own error handler render the 405, Allow header included', async () => {
    const fhir = await app.inject({ method: 'POST', url: '/fhir/metadata' });
    expect(fhir.statusCode).toBe(405);
    expect(fhir.headers.allow).toBe('GET, HEAD');
    expect(fhir.json()).toMatchObject({ resourceType: 'OperationOutcome' });
    const api = await app.inject({ method: 'PATCH', url: '/api/items/42' });
    expect(api.statusCode).toBe(405);
    expect(api.headers.allow).toBe('DELETE');
    expect(api.json()).toMatchObject({ success: false, code: 'METHOD_NOT_ALLOWED' });
  });
});
