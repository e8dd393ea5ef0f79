import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BOOT_SCRIPT, SERVER_MESSAGES } from '@vitalwatch/shared';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { badRequest } from '../errors.ts';

/** Answers of these paths carry health data or tokens: none is stored by a browser or a proxy. */
const DATA_PATHS = /^\/(api|fhir)\//;

/**
 * Browser features the web app does not use, refused to it and to any frame. To let the app use
 * one, take it out of this list (or give it `(self)`). The clipboard (copying codes) is not listed:
 * the default allows it to the page itself. Only features Chromium recognises are named, since it
 * warns on every page about any other: `bluetooth` (Web Bluetooth, which the gateway page calls, so it stays allowed to the page by
 * default) is one of those as of Chromium 156.
 */
const DENIED_FEATURES = [
  'accelerometer',
  'autoplay',
  'camera',
  'display-capture',
  'encrypted-media',
  'fullscreen',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'picture-in-picture',
  'publickey-credentials-get',
  'serial',
  'usb',
  'xr-spatial-tracking',
];
/** The Bluetooth gateway page keeps the screen on while it gathers readings (issue 28). */
const SELF_FEATURES = ['screen-wake-lock'];
const PERMISSIONS_POLICY = [
  ...DENIED_FEATURES.map((feature) => `${feature}=()`),
  ...SELF_FEATURES.map((feature) => `${feature}=(self)`),
].join(', ');

/**
 * The sign-out answer's `Clear-Site-Data`: the browser drops this origin's HTTP cache and its
 * storage, so a shared computer keeps neither the tokens nor the service worker's push
 * subscription (no more of the user's alerts as system notifications) even if the page's own
 * clean-up did not run. The app registers the worker and subscribes again at the next sign-in;
 * the cost is that the theme and a dismissed "enable alerts" prompt are forgotten too.
 */
export const SIGN_OUT_CLEAR_SITE_DATA = '"cache", "storage"';

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * The headers `middleware` sets, found once by running it against a response that only records
 * them. For helmet's, which depend on nothing in the request: its headers cost the server 6 µs of
 * its 34 a `/healthz` and 11 of 129 a family's device list (measured with and without them), and
 * set from this list with Fastify's in one hook, rather than by its chain of a dozen middlewares
 * on the raw response, the list took 122 µs against 132 and the profile 100 against 104 (back to
 * back). Whatever else the middleware would do (ask the request, remove a header, answer later)
 * is refused here, at start.
 */
export function headersSetBy(middleware: Middleware): [string, string][] {
  const headers: [string, string][] = [];
  let done = false;
  const refuse = (what: string) => {
    throw new Error(`headersSetBy: the middleware ${what}`);
  };
  const req = new Proxy({}, { get: (_target, key) => refuse(`read the request's ${String(key)}`) });
  const res = new Proxy(
    {
      setHeader: (name: string, value: string | number | readonly string[]) => {
        headers.push([name, String(value)]);
      },
      // helmet takes out X-Powered-By, which neither Node nor Fastify sets.
      removeHeader: (name: string) => {
        if (name.toLowerCase() !== 'x-powered-by') refuse(`removed ${name}`);
      },
    },
    {
      get: (target, key) =>
        key in target ? target[key as keyof typeof target] : refuse(`used the response's ${String(key)}`),
    },
  );
  middleware(req as IncomingMessage, res as unknown as ServerResponse, (error) => {
    if (error) throw error;
    done = true;
  });
  if (!done) refuse('did not finish at once');
  return headers;
}

/** The security headers of every answer (helmet's, set from a list made once: `headersSetBy`). */
const SECURITY_HEADERS = headersSetBy(
  helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // The pages' one inline script (theme and stored session before the first paint), by its hash.
        scriptSrc: ["'self'", `'sha256-${createHash('sha256').update(BOOT_SCRIPT).digest('base64')}'`],
        // Chart.js and the toast library set inline styles.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // The legacy header says what frame-ancestors 'none' says, for browsers without CSP 2.
    xFrameOptions: { action: 'deny' },
    // Served over plain HTTP on localhost by default; HSTS belongs to the TLS terminator.
    strictTransportSecurity: false,
  }),
);
const EVERY_ANSWER = Object.fromEntries([...SECURITY_HEADERS, ['permissions-policy', PERMISSIONS_POLICY]]);

/**
 * Rules every answer follows: a request with more than one `Host` header is a 400 (which host
 * it is for is ambiguous, RFC 9112 §3.2); every answer carries the security headers and
 * Permissions-Policy; API and FHIR answers are `Cache-Control: no-store` unless the route set its
 * own (public data such as the VAPID key).
 */
export function applyHeaderRules(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(EVERY_ANSWER);
    const raw = request.raw.rawHeaders;
    let hosts = 0;
    for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === 'host') hosts++;
    done(hosts > 1 ? badRequest(SERVER_MESSAGES.duplicateHost) : undefined);
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (DATA_PATHS.test(request.url) && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
