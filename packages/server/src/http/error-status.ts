import type { ErrorCode } from '../errors.ts';

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
};

/** Headers that go with a domain error's answer. */
export function httpErrorHeaders(
  code: ErrorCode,
  retryAfterSeconds: number | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {};
  if (retryAfterSeconds !== undefined)
    headers['retry-after'] = String(Math.max(1, Math.ceil(retryAfterSeconds)));
  if (code === 'metricsTokenRequired') headers['www-authenticate'] = 'Bearer realm="metrics"';
  return headers;
}
