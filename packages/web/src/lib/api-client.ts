import { ERRORS, errorBody, refreshResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { ApiError } from './api-error.ts';
import { API_BASE, type SentRequest, send } from './api-send.ts';
import { emitSessionExpired } from './session-events.ts';
import { clearTokens, getAccessToken, getRefreshToken, storeTokens } from './token-storage.ts';
import { waitForAccessToken } from './wait-for-token.ts';

/** `none`: public call; `user`: needs the stored access token; `admin`: also waits briefly for it. */
export type AuthMode = 'none' | 'user' | 'admin';

export interface ApiRequest<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Default `user`. */
  auth?: AuthMode;
  /** Parses the successful response; anything else is an `INVALID_RESPONSE` error. */
  schema: z.ZodType<T>;
  signal?: AbortSignal;
  /** The same request, already sent (`sendEarly`): its answer is the first attempt's. */
  sent?: SentRequest;
  /** The call that ends this browser's session (sign-out, ending it, closing the account): see `endingSession`. */
  endsSession?: boolean;
}

/**
 * The one way the web app talks to `/api/v1`: JSON in and out, bearer token, zod-parsed answers,
 * every failure an `ApiError`. An expired access token is refreshed once and the call retried;
 * when the refresh is refused the tokens are cleared and "session expired" is signalled.
 * Shows nothing and navigates nowhere: callers decide.
 */
export function apiRequest<T>(path: string, request: ApiRequest<T>): Promise<T> {
  const auth = request.auth ?? 'user';
  if (auth === 'none') return requested(path, request, auth);
  return inSession((signal) => requested(path, { ...request, signal }, auth), request);
}

async function requested<T>(path: string, request: ApiRequest<T>, auth: AuthMode): Promise<T> {
  const token = request.sent ? request.sent.token : await tokenFor(auth);
  let response = await (request.sent?.response ?? send(path, request, token));
  if (response.status === 401 && token !== null) {
    const fresh = await renewedToken(token);
    if (fresh) response = await send(path, request, fresh);
  }
  return parse(response, request.schema);
}

/** Authenticated requests under way, each with what cancels it (see `endingSession`). */
const underWay = new Map<Promise<unknown>, AbortController>();
/** While this browser's session is being ended, only the call ending it goes out. */
let ending = false;

/** How long ending the session lets the requests under way finish before it cancels them. */
export const SETTLE_BEFORE_SESSION_ENDS_MS = 2000;

/**
 * An authenticated call: refused at once as signed out while the session is being ended (unless it
 * is the call ending it), else `run` with a signal of its own (following `outer`), counted as under
 * way until it settles.
 */
async function inSession<T>(
  run: (signal: AbortSignal) => Promise<T>,
  { signal: outer, endsSession }: { signal?: AbortSignal; endsSession?: boolean } = {},
): Promise<T> {
  if (ending && !endsSession) throw new ApiError(0, 'NO_TOKEN', ERRORS.noAuthToken);
  const controller = new AbortController();
  const follow = () => controller.abort(outer?.reason);
  if (outer?.aborted) follow();
  else outer?.addEventListener('abort', follow, { once: true });
  const promise = run(controller.signal);
  underWay.set(promise, controller);
  try {
    return await promise;
  } finally {
    underWay.delete(promise);
    outer?.removeEventListener('abort', follow);
  }
}

/**
 * Runs `end`, the call ending this browser's session on the server (its request marked
 * `endsSession`), once nothing else of the session is under way: the requests already sent may
 * finish (up to SETTLE_BEFORE_SESSION_ENDS_MS, then they are cancelled) and new ones fail at once
 * as signed out. A request the server reached after the session ended would be refused (a 401 in
 * the console), and its refresh, refused too, would read as an expired session.
 */
export async function endingSession<T>(end: () => Promise<T>): Promise<T> {
  ending = true;
  try {
    const pending = [...underWay.keys()];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settled = await Promise.race([
      Promise.allSettled(pending).then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(resolve, SETTLE_BEFORE_SESSION_ENDS_MS, false);
      }),
    ]);
    clearTimeout(timer);
    if (!settled) for (const controller of underWay.values()) controller.abort();
    return await end();
  } finally {
    ending = false;
  }
}

/**
 * A file from a GET (an export) or a POST with a JSON body (the admin's backup), with the
 * signed-in user's token (refreshed once like `apiRequest`) or none (`auth: 'none'`, a share
 * link): its bytes and the name the server gave it. `onProgress` hears the bytes received so far.
 * A refusal is an `ApiError`.
 */
export function downloadFile(
  path: string,
  auth: 'user' | 'none' = 'user',
  options: { body?: unknown; onProgress?: (bytes: number) => void } = {},
): Promise<{ blob: Blob; filename: string }> {
  if (auth === 'none') return downloaded(path, auth, options);
  return inSession((signal) => downloaded(path, auth, options, signal));
}

async function downloaded(
  path: string,
  auth: 'user' | 'none',
  options: { body?: unknown; onProgress?: (bytes: number) => void },
  signal?: AbortSignal,
): Promise<{ blob: Blob; filename: string }> {
  const token = await tokenFor(auth);
  const post = options.body !== undefined;
  const get = (bearer: string | null) =>
    fetch(`${API_BASE}${path}`, {
      method: post ? 'POST' : 'GET',
      headers: {
        ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
        ...(post ? { 'Content-Type': 'application/json' } : {}),
      },
      body: post ? JSON.stringify(options.body) : undefined,
      credentials: 'same-origin',
      signal,
    }).catch((cause: unknown) => {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
      throw new ApiError(0, 'NETWORK_ERROR', 'The server could not be reached. Check your connection.');
    });
  let response = await get(token);
  if (response.status === 401 && token !== null) {
    const fresh = await renewedToken(token);
    if (fresh) response = await get(fresh);
  }
  if (!response.ok) throw errorFrom(response.status, await response.json().catch(() => undefined));
  const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  const blob = options.onProgress ? await counted(response, options.onProgress) : await response.blob();
  return { blob, filename: filename ?? 'vitalwatch-export' };
}

/** The body read chunk by chunk, telling the bytes so far; a stream that breaks is a network error. */
async function counted(response: Response, onProgress: (bytes: number) => void): Promise<Blob> {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let bytes = 0;
  const reader = response.body?.getReader();
  if (!reader) return response.blob();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      bytes += value.length;
      onProgress(bytes);
    }
  } catch {
    throw new ApiError(0, 'NETWORK_ERROR', 'The download was cut off before it finished.');
  }
  return new Blob(parts, { type: response.headers.get('content-type') ?? undefined });
}

async function tokenFor(auth: AuthMode): Promise<string | null> {
  if (auth === 'none') return null;
  if (auth === 'admin') return waitForAccessToken();
  const token = getAccessToken();
  if (!token) throw new ApiError(0, 'NO_TOKEN', ERRORS.noAuthToken);
  return token;
}

async function parse<T>(response: Response, schema: z.ZodType<T>): Promise<T> {
  const json: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw errorFrom(response.status, json);
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new ApiError(response.status, 'INVALID_RESPONSE', 'Unexpected response from the server');
  }
  return parsed.data;
}

function errorFrom(status: number, json: unknown): ApiError {
  const body = errorBody.safeParse(json);
  if (!body.success) return new ApiError(status, 'HTTP_ERROR', `Request failed with status ${status}`);
  const { code, message, issues } = body.data;
  return new ApiError(status, code, message, message, issues ?? []);
}

/**
 * For callers outside `apiRequest` whose access token was refused (the socket handshake): a new
 * token, sharing any refresh already under way, or null when the session is over.
 */
export const refreshAccessToken = (rejected: string): Promise<string | null> => renewedToken(rejected);

let refreshInFlight: Promise<string | null> | null = null;

/**
 * A new access token after a 401, or null when the session is over. Concurrent 401s share one
 * refresh (the server rotates refresh tokens and treats a replay as theft), and a call that
 * failed with a token another call has already replaced simply retries with the new one.
 */
async function renewedToken(rejected: string): Promise<string | null> {
  const current = getAccessToken();
  if (current && current !== rejected) return current;
  refreshInFlight ??= refreshSession().finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

async function refreshSession(): Promise<string | null> {
  const refreshToken = getRefreshToken();
  if (refreshToken) {
    const response = await send('/user/refresh', { body: { refreshToken } }, null);
    const json: unknown = await response.json().catch(() => undefined);
    const parsed = refreshResponse.safeParse(json);
    if (response.ok && parsed.success) {
      storeTokens(parsed.data.data);
      return parsed.data.data.accessToken;
    }
    // An answer cut off (the page reloading while it arrived) says nothing about the session: the
    // server may have rotated the token, and the next page's refresh gets the same successor back.
    if (response.ok) {
      throw new ApiError(response.status, 'INVALID_RESPONSE', 'Unexpected response from the server');
    }
    // Nor does a busy or failing server: keep the tokens, report the error.
    if (response.status === 429 || response.status >= 500) throw errorFrom(response.status, json);
  }
  clearTokens();
  emitSessionExpired();
  return null;
}
