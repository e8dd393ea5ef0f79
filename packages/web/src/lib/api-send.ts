import { ApiError } from './api-error.ts';

// No zod here (unlike api-client.ts): the first page can send a request before zod has downloaded.

export const API_BASE = '/api/v1';

export interface Sendable {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
}

/** A request sent before the API client was loaded (see `sendEarly`): the client reads its answer. */
export interface SentRequest {
  token: string;
  response: Promise<Response>;
}

/** One request to `/api/v1`: JSON body, bearer token; a failed connection is a NETWORK_ERROR `ApiError`. */
export async function send(path: string, request: Sendable, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  // Fastify refuses an empty body declared as JSON, so the header goes only with a body.
  if (request.body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    return await fetch(`${API_BASE}${path}`, {
      method: request.method ?? 'POST',
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      credentials: 'same-origin',
      signal: request.signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, 'NETWORK_ERROR', 'The server could not be reached. Check your connection.');
  }
}

/**
 * A GET sent at once with `token`, for the API client to finish later (`apiRequest`'s `sent`): a
 * signed-in reload asks for its profile while the app's code is still downloading.
 */
export function sendEarly(path: string, token: string): SentRequest {
  const response = send(path, { method: 'GET' }, token);
  // Read (and its failure reported) only when the client takes it over.
  response.catch(() => {});
  return { token, response };
}
