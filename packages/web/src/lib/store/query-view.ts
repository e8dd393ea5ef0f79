import { errorMessage } from '../api-error.ts';
import { asApiError } from './api.ts';

/**
 * What a screen shows of a query in the store: that it is loading, why it failed (server's message
 * or the spec's fallback), or its data, with the reason when a later refresh failed and the last
 * answer is what is shown.
 */
export type QueryView<T> =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | {
      status: 'ready';
      data: T;
      /** Why the last background refresh failed (the data shown is the previous answer), or null. */
      refreshError: string | null;
    };

/** What `queryView` reads of an RTK Query hook's result. */
interface QueryResult<T> {
  data?: T;
  error?: unknown;
  isError: boolean;
}

/** A query's result as a `QueryView`; `fallback` and `unexpected` as in `errorMessage`. */
export function queryView<T>(query: QueryResult<T>, fallback: string, unexpected = fallback): QueryView<T> {
  const message = () => errorMessage(asApiError(query.error), fallback, unexpected);
  if (query.data !== undefined)
    return { status: 'ready', data: query.data, refreshError: query.isError ? message() : null };
  return query.isError ? { status: 'error', message: message() } : { status: 'loading' };
}
