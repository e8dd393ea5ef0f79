import type { BaseQueryFn } from '@reduxjs/toolkit/query';
import { createApi } from '@reduxjs/toolkit/query/react';
import type { FieldIssue } from '@vitalwatch/shared';
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
  /** The server's per-field issues (forms show them under their inputs). */
  issues: readonly FieldIssue[];
}

/** A failed call as plain data for the store (a `queryFn` that calls the client itself uses it too). */
export function failureOf(error: unknown): ApiFailure {
  const e = error instanceof ApiError ? error : new ApiError(0, 'NETWORK_ERROR', String(error));
  return {
    status: e.status,
    code: e.code,
    message: e.message,
    serverMessage: e.serverMessage,
    issues: e.issues,
  };
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
    return { error: failureOf(error) };
  }
};

const isFailure = (f: unknown): f is ApiFailure =>
  typeof f === 'object' && f !== null && 'status' in f && 'code' in f && 'serverMessage' in f;

/**
 * A failed query's or mutation's error (`error`, or what `unwrap()` rejects with) as an `ApiError`,
 * for the message catalogue; an exception thrown inside RTK Query itself has no status.
 */
export function asApiError(f: unknown): ApiError {
  if (f instanceof ApiError) return f;
  if (isFailure(f)) return new ApiError(f.status, f.code, f.message, f.serverMessage, f.issues ?? []);
  const message = typeof f === 'object' && f !== null && 'message' in f ? String(f.message) : undefined;
  return new ApiError(0, 'INVALID_RESPONSE', message ?? 'Unexpected error');
}

/**
 * An `onQueryStarted` for a mutation whose answer changes cached data: once the server has agreed,
 * `apply(answer, arg)` makes the change (a pessimistic update). A failure changes nothing: the
 * caller reports it from the mutation's own result.
 */
export const onSuccess =
  <T, A, Change>(apply: (data: T, arg: A) => Change) =>
  async (
    arg: A,
    {
      dispatch,
      queryFulfilled,
    }: { dispatch: (change: Change) => unknown; queryFulfilled: Promise<{ data: T }> },
  ) => {
    let data: T;
    try {
      ({ data } = await queryFulfilled);
    } catch {
      return;
    }
    dispatch(apply(data, arg));
  };

/**
 * Server data in the store (RTK Query) over the one API client: features add their endpoints with
 * `api.injectEndpoints`, so this file imports none of them.
 */
export const api = createApi({ reducerPath: 'api', baseQuery: apiClientQuery, endpoints: () => ({}) });
