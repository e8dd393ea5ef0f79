import { SERVER_MESSAGES } from '@vitalwatch/shared';
import type { FastifyInstance } from 'fastify';
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

/**
 * Rules every answer follows: a request with more than one `Host` header is a 400 (which host
 * it is for is ambiguous, RFC 9112 §3.2); every answer carries Permissions-Policy; API and FHIR
 * answers are `Cache-Control: no-store` unless the route set its own (public data such as the
 * VAPID key).
 */
export function applyHeaderRules(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    const raw = request.raw.rawHeaders;
    let hosts = 0;
    for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === 'host') hosts++;
    if (hosts > 1) throw badRequest(SERVER_MESSAGES.duplicateHost);
  });
  app.addHook('onSend', async (request, reply) => {
    if (DATA_PATHS.test(request.url) && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'no-store');
  });
}
