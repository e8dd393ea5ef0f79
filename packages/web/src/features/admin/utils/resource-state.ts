import { errorMessage } from '@/lib/api-error.ts';
import { asApiError } from '@/lib/store/api.ts';

export type ResourceState<T> =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | {
      status: 'ready';
      data: T;
      /** Why the last background refresh failed (the data shown is the previous answer), or null. */
      refreshError: string | null;
    };

/** What an admin screen reads of an RTK Query result. */
interface QueryResult<T> {
  data?: T;
  error?: unknown;
  isError: boolean;
}

/**
 * An admin screen's view of a query in the store: loading, an error with its message (server's or
 * `fallback`), or the data, with the reason when a later refresh failed and it is the last answer
 * that is shown.
 */
export function resourceState<T>(query: QueryResult<T>, fallback: string): ResourceState<T> {
  const message = () => errorMessage(asApiError(query.error), fallback);
  if (query.data !== undefined)
    return { status: 'ready', data: query.data, refreshError: query.isError ? message() : null };
  return query.isError ? { status: 'error', message: message() } : { status: 'loading' };
}
