import { messageOnly, profileResponse } from '@vitalwatch/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { healthError } from '@/features/health/hooks/use-health-data.ts';
import { apiRequest } from '@/lib/api-client.ts';
import { ApiError, errorMessage } from '@/lib/api-error.ts';
import { sendEarly } from '@/lib/api-send.ts';
import { onSessionExpired } from '@/lib/session-events.ts';
import { getAccessToken, getRefreshToken, storeTokens } from '@/lib/token-storage.ts';
import { waitForAccessToken } from '@/lib/wait-for-token.ts';
import { jsonResponse, sampleUser } from './render.tsx';

const profileOk = () => jsonResponse(200, { success: true, message: 'ok', data: { user: sampleUser } });
const unauthorized = () =>
  jsonResponse(401, { success: false, message: 'Invalid or expired token', code: 'UNAUTHENTICATED' });

interface Call {
  url: string;
  auth: string | null;
  body: unknown;
}

/** A fake server: `handle` answers each request; every request is recorded. */
function fakeFetch(handle: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    const call = {
      url,
      auth: headers.get('Authorization'),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    return handle(call);
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

/** Refreshes any session to the pair new / R2, and answers the profile only for the new token. */
const renewingServer = ({ url, auth }: Call) => {
  if (url.endsWith('/user/refresh')) {
    return jsonResponse(200, {
      success: true,
      message: 'ok',
      data: { accessToken: 'new', refreshToken: 'R2' },
    });
  }
  return auth === 'Bearer new' ? profileOk() : unauthorized();
};
/** What a profile call with the expired token 'old' sends, in order, against `renewingServer`. */
const RENEWED = [
  ['/api/v1/user/profile', 'Bearer old'],
  ['/api/v1/user/refresh', null],
  ['/api/v1/user/profile', 'Bearer new'],
];

beforeEach(() => localStorage.clear());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('apiRequest', () => {
  it('sends JSON with the bearer token and parses the answer with the schema', async () => {
    storeTokens({ accessToken: 'A1', refreshToken: 'R1' });
    const calls = fakeFetch(() => profileOk());
    const result = await apiRequest('/user/profile', { method: 'GET', schema: profileResponse });
    expect(result.data.user.username).toBe('ada');
    expect(calls).toEqual([{ url: '/api/v1/user/profile', auth: 'Bearer A1', body: undefined }]);
  });

  it('fails at once without a stored token, with the spec message', async () => {
    const calls = fakeFetch(() => profileOk());
    const error = await apiRequest('/user/profile', { schema: profileResponse }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('No authentication token found.');
    expect(errorMessage(error, 'Failed to fetch profile')).toBe('No authentication token found.');
    expect(calls).toHaveLength(0);
  });

  it('on a 401 refreshes once, stores the new pair and retries', async () => {
    storeTokens({ accessToken: 'old', refreshToken: 'R1' });
    const calls = fakeFetch(renewingServer);
    const result = await apiRequest('/user/profile', { method: 'GET', schema: profileResponse });
    expect(result.data.user.username).toBe('ada');
    expect(calls.map((c) => [c.url, c.auth])).toEqual(RENEWED);
    expect(calls[1]?.body).toEqual({ refreshToken: 'R1' });
    expect([getAccessToken(), getRefreshToken()]).toEqual(['new', 'R2']);
  });

  it('retries only once: a second 401 is the caller’s error', async () => {
    storeTokens({ accessToken: 'old', refreshToken: 'R1' });
    const calls = fakeFetch(({ url }) =>
      url.endsWith('/user/refresh')
        ? jsonResponse(200, {
            success: true,
            message: 'ok',
            data: { accessToken: 'new', refreshToken: 'R2' },
          })
        : unauthorized(),
    );
    const error = await apiRequest('/user/profile', { schema: profileResponse }).catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(401);
    expect(calls).toHaveLength(3);
  });

  it('when the refresh is refused, clears the tokens and signals that the session expired', async () => {
    storeTokens({ accessToken: 'old', refreshToken: 'revoked' });
    const expired = vi.fn();
    const unsubscribe = onSessionExpired(expired);
    fakeFetch(({ url }) =>
      url.endsWith('/user/refresh')
        ? jsonResponse(401, {
            success: false,
            message: 'Invalid or expired refresh token',
            code: 'UNAUTHENTICATED',
          })
        : unauthorized(),
    );
    const error = await apiRequest('/user/profile', { schema: profileResponse }).catch((e: unknown) => e);
    unsubscribe();
    expect((error as ApiError).status).toBe(401);
    expect(expired).toHaveBeenCalledOnce();
    expect([getAccessToken(), getRefreshToken()]).toEqual([null, null]);
  });

  it('keeps the tokens when the refresh fails because the server is down', async () => {
    storeTokens({ accessToken: 'old', refreshToken: 'R1' });
    const expired = vi.fn();
    const unsubscribe = onSessionExpired(expired);
    fakeFetch(({ url }) =>
      url.endsWith('/user/refresh')
        ? jsonResponse(503, { success: false, message: 'Service unavailable', code: 'UNAVAILABLE' })
        : unauthorized(),
    );
    const error = await apiRequest('/user/profile', { schema: profileResponse }).catch((e: unknown) => e);
    unsubscribe();
    expect((error as ApiError).status).toBe(503);
    expect(expired).not.toHaveBeenCalled();
    expect(getRefreshToken()).toBe('R1');
  });

  it('keeps the tokens when the refresh answer is cut off (the page reloading as it arrives)', async () => {
    storeTokens({ accessToken: 'old', refreshToken: 'R1' });
    const expired = vi.fn();
    const unsubscribe = onSessionExpired(expired);
    const cutOff = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"success":tr'));
        controller.error(new DOMException('The user aborted a request.', 'AbortError'));
      },
    });
    fakeFetch(({ url }) =>
      url.endsWith('/user/refresh')
        ? new Response(cutOff, { status: 200, headers: { 'Content-Type': 'application/json' } })
        : unauthorized(),
    );
    const error = await apiRequest('/user/profile', { schema: profileResponse }).catch((e: unknown) => e);
    unsubscribe();
    expect((error as ApiError).code).toBe('INVALID_RESPONSE');
    expect(expired).not.toHaveBeenCalled();
    expect([getAccessToken(), getRefreshToken()]).toEqual(['old', 'R1']);
  });

  it('shares one refresh between concurrent calls', async () => {
    storeTokens({ accessToken: 'old', refreshToken: 'R1' });
    const calls = fakeFetch(renewingServer);
    await Promise.all([
      apiRequest('/user/profile', { method: 'GET', schema: profileResponse }),
      apiRequest('/user/profile', { method: 'GET', schema: profileResponse }),
    ]);
    expect(calls.filter((c) => c.url.endsWith('/user/refresh'))).toHaveLength(1);
  });

  it('turns an error body into an ApiError with status, code, message and field issues', async () => {
    const issues = [{ path: 'user.username', message: 'Username is already taken' }];
    fakeFetch(() =>
      jsonResponse(409, { success: false, message: 'Username is already taken', code: 'CONFLICT', issues }),
    );
    const error = (await apiRequest('/user/create', { auth: 'none', body: {}, schema: messageOnly }).catch(
      (e: unknown) => e,
    )) as ApiError;
    expect([error.status, error.code, error.message]).toEqual([409, 'CONFLICT', 'Username is already taken']);
    expect(error.issues).toEqual(issues);
    expect(errorMessage(error, 'Signup failed')).toBe('Username is already taken');
  });

  it('uses the caller’s fallback when the server gave no message, and for network failures', async () => {
    fakeFetch(() => new Response('<html>bad gateway</html>', { status: 502 }));
    const bad = await apiRequest('/user/login', { auth: 'none', schema: messageOnly }).catch(
      (e: unknown) => e,
    );
    expect((bad as ApiError).code).toBe('HTTP_ERROR');
    expect(errorMessage(bad, 'Login failed')).toBe('Login failed');

    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const offline = await apiRequest('/user/login', { auth: 'none', schema: messageOnly }).catch(
      (e: unknown) => e,
    );
    expect((offline as ApiError).code).toBe('NETWORK_ERROR');
    expect(errorMessage(offline, 'Login failed')).toBe('Login failed');
  });

  it('rejects a success response that does not match the schema', async () => {
    storeTokens({ accessToken: 'A1', refreshToken: 'R1' });
    fakeFetch(() => jsonResponse(200, { success: true, message: 'ok', data: { user: { username: 'x' } } }));
    const error = await apiRequest('/user/profile', { schema: profileResponse }).catch((e: unknown) => e);
    expect((error as ApiError).code).toBe('INVALID_RESPONSE');
  });
});

describe('a request sent before the API client loaded (sendEarly)', () => {
  it('is sent at once and its answer is what apiRequest parses: no second request', async () => {
    storeTokens({ accessToken: 'A1', refreshToken: 'R1' });
    const calls = fakeFetch(() => profileOk());
    const sent = sendEarly('/user/profile', 'A1');
    expect(calls).toEqual([{ url: '/api/v1/user/profile', auth: 'Bearer A1', body: undefined }]);
    const result = await apiRequest('/user/profile', { method: 'GET', schema: profileResponse, sent });
    expect(result.data.user.username).toBe('ada');
    expect(calls).toHaveLength(1);
  });

  it('refused for an expired token: refreshed once and asked again, like any request', async () => {
    storeTokens({ accessToken: 'old', refreshToken: 'R1' });
    const calls = fakeFetch(renewingServer);
    const sent = sendEarly('/user/profile', 'old');
    const result = await apiRequest('/user/profile', { method: 'GET', schema: profileResponse, sent });
    expect(result.data.user.username).toBe('ada');
    expect(calls.map((c) => [c.url, c.auth])).toEqual(RENEWED);
  });

  it('that could not reach the server fails as a network error when read, not before', async () => {
    storeTokens({ accessToken: 'A1', refreshToken: 'R1' });
    fakeFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const sent = sendEarly('/user/profile', 'A1');
    await new Promise((resolve) => setTimeout(resolve, 0));
    const error = await apiRequest('/user/profile', { method: 'GET', schema: profileResponse, sent }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('NETWORK_ERROR');
    expect(getAccessToken()).toBe('A1');
  });
});

describe('admin token polling', () => {
  it('finds a token that appears during the polling', async () => {
    vi.useFakeTimers();
    const pending = waitForAccessToken();
    await vi.advanceTimersByTimeAsync(100);
    storeTokens({ accessToken: 'late', refreshToken: 'R' });
    await vi.advanceTimersByTimeAsync(100);
    await expect(pending).resolves.toBe('late');
  });

  it('gives up after 3 attempts 100 ms apart with the admin message', async () => {
    vi.useFakeTimers();
    const getItem = vi.spyOn(Storage.prototype, 'getItem');
    const pending = waitForAccessToken().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(199);
    expect(getItem.mock.calls.filter(([key]) => key === 'access-token')).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    const error = await pending;
    expect(getItem.mock.calls.filter(([key]) => key === 'access-token')).toHaveLength(3);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('Authentication token not available');
    getItem.mockRestore();
  });

  it('admin calls send the token once it is there', async () => {
    storeTokens({ accessToken: 'A1', refreshToken: 'R1' });
    const calls = fakeFetch(() => jsonResponse(200, { success: true, message: 'ok' }));
    await apiRequest('/admin/stats', { auth: 'admin', schema: messageOnly });
    expect(calls[0]?.auth).toBe('Bearer A1');
  });
});

describe('error texts of spec section 8', () => {
  const unexpected = 'An unexpected error occurred! Please try again.';

  it('the server message first, else the fallback, else the unexpected-error text', () => {
    const said = new ApiError(500, 'INTERNAL', 'Internal server error', 'Internal server error');
    const silent = new ApiError(502, 'HTTP_ERROR', 'Request failed with status 502');
    const offline = new ApiError(0, 'NETWORK_ERROR', 'The server could not be reached.');
    expect(errorMessage(said, 'Failed to fetch alerts', unexpected)).toBe('Internal server error');
    expect(errorMessage(silent, 'Failed to fetch alerts', unexpected)).toBe('Failed to fetch alerts');
    expect(errorMessage(offline, 'Failed to fetch alerts', unexpected)).toBe(unexpected);
    expect(errorMessage(new TypeError('bug'), 'Failed to fetch alerts', unexpected)).toBe(unexpected);
    expect(errorMessage(offline, 'Failed to add user')).toBe('Failed to add user');
  });

  it('health: 404 is "Health data not found", another status "Failed to fetch health data"', () => {
    expect(healthError(new ApiError(404, 'HTTP_ERROR', 'x'))).toBe('Health data not found');
    expect(healthError(new ApiError(503, 'HTTP_ERROR', 'x'))).toBe('Failed to fetch health data');
    expect(healthError(new ApiError(404, 'NOT_FOUND', 'Not found', 'Not found'))).toBe('Not found');
    expect(healthError(new TypeError('bug'))).toBe(unexpected);
  });
});
