import { SERVER_MESSAGES } from '@vitalwatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { FailureThrottle } from '../../auth/failure-throttle.ts';
import { AppError, tooManyRequests } from '../../errors.ts';
import type { DeviceRow } from '../device/repository.ts';
import type { IngestService } from './service.ts';

/**
 * `X-Api-Key` authentication with a limit on failures per address: once an address has sent
 * too many missing or unknown keys inside the window, its next ones get 429 with Retry-After
 * instead of 401, until the window moves on. A valid key is checked first and never touches the
 * counter, so the devices sharing a gateway's address keep ingesting while one of them (or a
 * stranger) keeps failing. A disabled device's key (403) is not a failure of this kind.
 */
export function apiKeyAuthenticator(
  ingest: IngestService,
  failures: FailureThrottle,
  log: FastifyBaseLogger,
) {
  return async (apiKey: string | undefined, ip: string): Promise<DeviceRow> => {
    try {
      return await ingest.authenticateApiKey(apiKey);
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 401) throw err;
      const waiting = await failures.blockedFor(ip);
      if (waiting > 0) throw tooManyRequests(SERVER_MESSAGES.rateLimited, waiting);
      const blockedNow = await failures.fail(ip);
      if (blockedNow > 0) {
        log.warn(
          { ip, retryAfterSeconds: blockedNow },
          'ingestion: too many unknown API keys from one address',
        );
      }
      throw err;
    }
  };
}
