import type { BaseQueryFn } from '@reduxjs/toolkit/query';
import { createApi } from '@reduxjs/toolkit/query/react';
import type { z } from 'zod';
import type { ApiRequest } from '../api-client.ts';
import { ApiError } from '../api-error.ts';

/** One call through the zod-parsing API client. */
export interface ApiCall<T = unknown> {
  path: string;
  body?: unknown;
  schema: z.ZodType<T>;
  /** Default POST. */
  method?: ApiRequest<T>['method'];
  /** Default `user`. */
  auth?: ApiRequest<T>['auth'];
}

/** A failed call as the store keeps it (plain data); `asApiError` turns it back for the message catalogue. */
export interface ApiFailure {
  status: number;
  code: string;
  message: string;
  serverMessage: string | null;
}

const apiClientQuery: BaseQueryFn<ApiCall, unknown, ApiFailure> = async (
  { path, body, schema, method, auth },
  { signal },
) => {
  try {
    // Loaded with the first query: the store exists on a visitor's first page, which runs none.
    const { apiRequest } = await import('../api-client.ts');
    return { data: await apiRequest(path, { body, schema, signal, method, auth }) };
  } catch (error) {
    const e = error instanceof ApiError ? error : new ApiError(0, 'NETWORK_ERROR', String(error));
    return { error: { status: e.status, code: e.code, message: e.message, serverMessage: e.serverMessage } };
  }
};

/** A failed query's error as an `ApiError` (an exception thrown inside RTK Query itself has no status). */
export const asApiError = (f: ApiFailure | { message?: string }): ApiError =>
  'status' in f && 'serverMessage' in f
    ? new ApiError(f.status, f.code, f.message, f.serverMessage)
    : new ApiError(0, 'INVALID_RESPONSE', f.message ?? 'Unexpected error');

/**
 * Server data in the store (RTK Query) over the one API client: features add their endpoints with
 * `api.injectEndpoints`, so this file imports none of them.
 */
export const api = createApi({ reducerPath: 'api', baseQuery: apiClientQuery, endpoints: () => ({}) });
