import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { constants as zlibConstants } from 'node:zlib';
import compress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import { livenessResponse, readinessResponse, SERVER_MESSAGES } from '@vitalwatch/shared';
import Fastify, { LogController } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { addressKey } from './auth/address-key.ts';
import { type ComposeOptions, composeServices, registerRoutes } from './composition.ts';
import type { AppConfig } from './config.ts';
import type { AppContext, AppInstance } from './context.ts';
import { createDatabase, type Database } from './db/index.ts';
import { tooManyRequests } from './errors.ts';
import { API_DESCRIPTION, registerApiReference } from './http/api-reference.ts';
import { compiledSerializerCompiler } from './http/compiled-serializer.ts';
import { allowCorsOrigins } from './http/cors.ts';
import { domainErrorHeaders, errorHandler } from './http/error-handler.ts';
import { applyHeaderRules } from './http/header-rules.ts';
import { trackInFlight } from './http/in-flight.ts';
import { refuseNulInJsonBodies } from './http/json-body.ts';
import { openApiOptions } from './http/openapi.ts';
import { BROTLI_QUALITY } from './http/prebuilt-json.ts';
import { FixedWindowStore } from './http/rate-limit-store.ts';
import { trackRouteMethods, unmatchedRoute } from './http/route-methods.ts';
import { serializeError } from './lib/log-errors.ts';
import { loadIoredis } from './lib/optional-packages.ts';
import { settledWithin } from './lib/time-limit.ts';
import type { Realtime } from './realtime/socket-server.ts';

export interface BuildOptions extends ComposeOptions {
  /** An already-open database (tests share one per file); otherwise one is opened from the config. */
  database?: Database;
}

export interface BuiltApp {
  app: AppInstance;
  ctx: AppContext;
  /** Socket.IO: who is connected, and `revalidate` of their tokens. */
  realtime: Realtime;
}

export const BODY_LIMIT = 1024 * 1024;
/** Replies up to this size are compressed in one call, larger ones through a stream (see below). */
const COMPRESS_IN_ONE_CALL_BYTES = 1024 * 1024;
/** The longest closing waits for requests in flight, and then for the database and Redis to close. */
const CLOSE_STEP_MS = 5_000;

/** The whole server, ready to `listen` or to `inject`. Closing the app closes what it opened. */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<BuiltApp> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
      serializers: { err: serializeError },
    },
    bodyLimit: BODY_LIMIT,
    trustProxy: config.trustProxy,
    return503OnClosing: true,
    // Two info lines for every request (a page load is dozens) would bury the start-up banner and
    // its one-time admin password: requests are logged at debug (LOG_LEVEL=debug), errors always.
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<ZodTypeProvider>();
  const database =
    options.database ??
    (await createDatabase({
      databaseUrl: config.databaseUrl,
      pgliteDir: config.pgliteDir,
      onFault: (message) => app.log.error(message),
    }));
  if (!options.database) await database.migrate();
  const redis = config.redisUrl
    ? // Rate limits and failure counters only: while Redis is away their commands fail at once
      // (no offline queue; 1 s at most for a Redis that stopped answering) and requests go on.
      new (await loadIoredis()).Redis(config.redisUrl, {
        lazyConnect: false,
        enableOfflineQueue: false,
        commandTimeout: 1000,
      })
    : undefined;
  // Only at debug: two async hooks that log nothing still cost every request two promises.
  if (config.logLevel === 'debug' || config.logLevel === 'trace') logRequests(app);
  // ioredis reconnects by itself; without a listener every failed attempt is an "Unhandled error event".
  redis?.on('error', (err: Error) => app.log.warn({ err: err.message }, 'redis unavailable; retrying'));
  app.setValidatorCompiler(validatorCompiler);
  // Replies written by code compiled from each response schema, not zod's parse per reply.
  app.setSerializerCompiler(compiledSerializerCompiler(app.log));
  app.setErrorHandler(errorHandler);
  app.addHook('onError', domainErrorHeaders);
  trackRouteMethods(app);
  applyHeaderRules(app);
  allowCorsOrigins(app, config.corsOrigins);
  refuseNulInJsonBodies(app);
  // Graceful shutdown: once closing, new requests get 503 while those already in flight finish
  // (preClose runs before onClose, so the database is still open for them).
  const inFlight = trackInFlight(app.server);
  app.addHook('preClose', async () => {
    if (!(await settledWithin(inFlight.idle(), CLOSE_STEP_MS)))
      app.log.warn(`shutdown: ${inFlight.count} requests still in flight after ${CLOSE_STEP_MS} ms`);
  });
  app.decorateRequest('auth', null);

  const ctx = composeServices(config, database, redis, app.log, options);

  // API responses of 1 kB or more go out compressed (brotli at a quality that costs little CPU per
  // request, BROTLI_QUALITY, or gzip); the web app's files are compressed once at build time (see registerWebApp).
  // Compressed request bodies are not accepted: a device has no reason to send one. Replies up to
  // 1 MiB are compressed in one call: through a zlib stream (the plugin's default above 8 kB on two
  // cores) a 21 kB admin page cost 0.29 ms of CPU, in one call 0.14 ms, and the stream's thread
  // pool has no idle core to run on when PostgreSQL shares the machine; a 24 h history (81 kB,
  // over the 64 kB this was first set to) spent 1.7 ms of the server's thread a reply in the
  // stream's chunks. Larger buffered replies (the spec's every-device list) still stream.
  await app.register(compress, {
    threshold: 1024,
    syncThreshold: COMPRESS_IN_ONE_CALL_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
    globalDecompression: false,
  });
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'vw:rl:' } : { store: FixedWindowStore }),
    // Redis down: serve without the limit rather than refuse readings and sign-ins.
    skipOnError: true,
    // Per client as the device limits count them: an IPv6 address by its /64.
    keyGenerator: (request) => addressKey(request.ip),
    errorResponseBuilder: (_req, context) => tooManyRequests(SERVER_MESSAGES.rateLimited, context.ttl / 1000),
  });
  await app.register(swagger, openApiOptions(API_DESCRIPTION));

  app.get('/healthz', { schema: { response: { 200: livenessResponse } } }, async () => ({
    status: 'ok' as const,
  }));
  const readiness = { 200: readinessResponse, 503: readinessResponse };
  app.get('/readyz', { schema: { response: readiness } }, async (_request, reply) => {
    const checks: Record<string, 'ok' | 'down'> = {};
    try {
      await database.ping();
      checks.database = 'ok';
    } catch {
      checks.database = 'down';
    }
    const mqttReady = ctx.mqtt.isReady();
    if (mqttReady !== undefined) checks.mqtt = mqttReady ? 'ok' : 'down';
    const ready = Object.values(checks).every((v) => v === 'ok');
    // Reported, not required: without Redis this process still serves everything it can (see
    // README), and a load balancer taking every node out at once would be a full outage.
    if (redis) checks.redis = redis.status === 'ready' ? 'ok' : 'down';
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks });
  });
  // Public and the same for everyone: revalidated, not no-store like the API's data.
  app.get('/api/v1/openapi.json', async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send(app.swagger()),
  );
  await registerApiReference(app);
  const running = await registerRoutes(app, ctx);
  registerWebApp(app, config);

  app.addHook('onClose', async () => {
    await running.stop();
    // A pool's end waits for each connection's goodbye, which a dead link never brings.
    if (!(await settledWithin(database.close(), CLOSE_STEP_MS)))
      app.log.warn(`shutdown: the database connections did not close within ${CLOSE_STEP_MS} ms`);
    if (redis && !(await settledWithin(redis.quit(), CLOSE_STEP_MS))) redis.disconnect();
  });
  return { app, ctx, realtime: running.realtime };
}

/** An `incoming request` and a `request completed` line (debug) for every request. */
function logRequests(app: AppInstance) {
  app.addHook('onRequest', async (request) => {
    request.log.debug({ method: request.method, url: request.url }, 'incoming request');
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.debug(
      {
        method: request.method,
        url: request.url,
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request completed',
    );
  });
}

/**
 * The page for a path of the app: the build writes one index.html per area naming that area's code
 * for preloading, and pages with a static first screen for some exact paths (`area-pages.json`:
 * exact path → page, then path prefix → page; packages/web/vite-area-pages.ts); any other path, or
 * a build without it, gets index.html.
 */
function areaPages(root: string): (url: string) => string {
  const file = path.join(root, 'area-pages.json');
  const pages = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as {
        exact: Record<string, string>;
        prefix: Record<string, string>;
      })
    : { exact: {}, prefix: {} };
  const exact = new Map(Object.entries(pages.exact));
  // Longest prefix first: /dashboard/board before /dashboard.
  const prefixes = Object.entries(pages.prefix).sort(([a], [b]) => b.length - a.length);
  return (url) => {
    const pathname = url.split('?')[0] ?? url;
    const match = prefixes.find(([prefix]) => pathname === prefix || pathname.startsWith(`${prefix}/`));
    return exact.get(pathname) ?? match?.[1] ?? 'index.html';
  };
}

/** Vite names every file under /assets/ by a hash of its content: it never changes under its name. */
const HASHED_ASSETS = '/assets/';

/**
 * The built web app with SPA fallback: unknown non-API paths render index.html, whose router
 * decides. Files go out as the `.br` / `.gz` written beside them at build time when the browser
 * takes one; hashed assets are cached for a year, everything else is revalidated on every use
 * (index.html must name the current assets, the service worker must update). Source maps are
 * not served.
 */
function registerWebApp(app: AppInstance, config: AppConfig) {
  const root = config.webDist;
  const hasWeb = root !== undefined && existsSync(path.join(root, 'index.html'));
  if (hasWeb) {
    app.register(fastifyStatic, {
      root,
      wildcard: true,
      index: ['index.html'],
      preCompressed: true,
      cacheControl: false,
      allowedPath: (pathName) => !pathName.endsWith('.map'),
      setHeaders: (res, filePath) => {
        const hashed = filePath.startsWith(path.join(root, HASHED_ASSETS));
        res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  const pageOf = hasWeb ? areaPages(root) : () => 'index.html';
  app.setNotFoundHandler((request, reply) => {
    // A missing asset (a chunk of an older build, a source map) is a 404, never the page.
    const isFile =
      request.url.startsWith('/api/') ||
      request.url.startsWith('/socket.io') ||
      request.url.startsWith(HASHED_ASSETS);
    if (hasWeb && !isFile && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.type('text/html').sendFile(pageOf(request.url));
    }
    // A known path asked with another method is a 405 with Allow; anything else a 404.
    throw unmatchedRoute(request);
  });
}
