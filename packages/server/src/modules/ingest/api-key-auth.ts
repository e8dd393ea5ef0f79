import { SERVER_MESSAGES } from '@vitalwatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import { addressKey } from '../../auth/address-key.ts';
import type { FailureThrottle } from '../../auth/failure-throttle.ts';
import { isDomainError, tooManyRequests } from '../../errors.ts';
import type { DeviceRow } from '../device/service.ts';
import type { IngestService } from './service.ts';

/**
 * `X-Api-Key` authentication with a limit on failures per address: once an address has sent
 * too many missing or unknown keys inside the window, its next ones get 429 with Retry-After
 * instead of 401, until the window moves on. Every key is looked up before the counter is
 * consulted, so a valid key never touches it and the devices sharing a gateway's address keep
 * ingesting while one of them (or a stranger) keeps failing; the 429 saves no lookup. A disabled
 * device's key (403) is not a failure of this kind. Addresses are counted as `addressKey` has it
 * (an IPv6 one by its /64).
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
      if (!isDomainError(err, 'missingApiKey', 'unknownApiKey')) throw err;
      const key = addressKey(ip);
      const waiting = await failures.blockedFor(key);
      if (waiting > 0) throw tooManyRequests(SERVER_MESSAGES.rateLimited, waiting);
      const blockedNow = await failures.fail(key);
      if (blockedNow > 0) {
        log.warn(
          { ip: key, retryAfterSeconds: blockedNow },
          'ingestion: too many unknown API keys from one address',
        );
      }
      throw err;
    }
  };
}
