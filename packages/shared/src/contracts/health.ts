import { z } from 'zod';
import {
  HEALTH_MESSAGES,
  healthFetchBody,
  healthFetchResponse,
  healthHistoryBody,
  healthHistoryResponse,
} from '../schemas/health.ts';
import { defineContracts, RECORD_ERRORS } from './contract.ts';

export const deviceIdParams = z.object({ deviceId: z.string().min(1).max(64) });

/** `/api/v1/health/*`: the readings of a device the caller may see (404 for any other). */
export const healthContracts = defineContracts('/health', 'signed-in', {
  fetch: {
    method: 'POST',
    path: '/fetch/:deviceId',
    summary: "A device's readings, newest first",
    params: deviceIdParams,
    body: healthFetchBody,
    response: healthFetchResponse,
    message: HEALTH_MESSAGES.fetched,
    errors: RECORD_ERRORS,
  },
  history: {
    method: 'POST',
    path: '/history/:deviceId',
    summary: "A device's history over a range",
    params: deviceIdParams,
    body: healthHistoryBody,
    response: healthHistoryResponse,
    message: HEALTH_MESSAGES.historyFetched,
    errors: RECORD_ERRORS,
  },
});
