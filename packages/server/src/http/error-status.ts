import type { ErrorCode, ErrorDetails } from '../errors.ts';

/** How a domain error reads over HTTP: its status and the `code` of the error body (stable, documented). */
export const HTTP_ERRORS: Record<ErrorCode, { status: number; code: string }> = {
  invalidInput: { status: 400, code: 'VALIDATION_ERROR' },
  unauthenticated: { status: 401, code: 'UNAUTHENTICATED' },
  missingApiKey: { status: 401, code: 'UNAUTHENTICATED' },
  unknownApiKey: { status: 401, code: 'UNAUTHENTICATED' },
  metricsTokenRequired: { status: 401, code: 'UNAUTHORIZED' },
  forbidden: { status: 403, code: 'FORBIDDEN' },
  deviceInactive: { status: 403, code: 'FORBIDDEN' },
  notFound: { status: 404, code: 'NOT_FOUND' },
  methodNotAllowed: { status: 405, code: 'METHOD_NOT_ALLOWED' },
  deviceNotFound: { status: 404, code: 'NOT_FOUND' },
  conflict: { status: 409, code: 'CONFLICT' },
  lastAdmin: { status: 409, code: 'LAST_ADMIN' },
  adminHasDevices: { status: 409, code: 'HAS_DEVICES' },
  selfDelete: { status: 409, code: 'SELF_DELETE' },
  rateLimited: { status: 429, code: 'RATE_LIMITED' },
  // Refused at once: the device sends again after Retry-After.
  ingestQueueFull: { status: 429, code: 'RATE_LIMITED' },
  // It waited and there was still no room: nothing was done, the same request may succeed shortly.
  ingestQueueTimedOut: { status: 503, code: 'BUSY' },
  temporarilyUnavailable: { status: 503, code: 'BUSY' },
  pushNotConfigured: { status: 503, code: 'PUSH_NOT_CONFIGURED' },
  linkExpired: { status: 410, code: 'LINK_EXPIRED' },
  linkUsed: { status: 410, code: 'LINK_USED' },
};

/** People's access tokens (RFC 6750); `error="invalid_token"` tells a client to refresh or sign in again. */
const bearerChallenge = (realm: string, rejected: boolean | undefined) =>
  `Bearer realm="${realm}"${rejected ? ', error="invalid_token"' : ''}`;

/**
 * The challenge of a 401 (RFC 9110 requires one). Devices authenticate with the `X-Api-Key` header,
 * which has no registered scheme: `ApiKey` names the header to send.
 */
function challenge(code: ErrorCode, details: ErrorDetails): string | undefined {
  switch (code) {
    case 'unauthenticated':
      return bearerChallenge('VitalWatch', details.credentialsRejected);
    case 'metricsTokenRequired':
      return bearerChallenge('metrics', details.credentialsRejected);
    case 'missingApiKey':
      return 'ApiKey realm="devices", header="X-Api-Key"';
    case 'unknownApiKey':
      return 'ApiKey realm="devices", header="X-Api-Key", error="invalid_key"';
    default:
      return undefined;
  }
}

/** Headers that go with a domain error's answer, whichever error handler renders its body. */
export function httpErrorHeaders(code: ErrorCode, details: ErrorDetails): Record<string, string> {
  const headers: Record<string, string> = {};
  if (details.retryAfterSeconds !== undefined)
    headers['retry-after'] = String(Math.max(1, Math.ceil(details.retryAfterSeconds)));
  const wwwAuthenticate = challenge(code, details);
  if (wwwAuthenticate) headers['www-authenticate'] = wwwAuthenticate;
  if (details.allow) headers.allow = details.allow.join(', ');
  return headers;
}
