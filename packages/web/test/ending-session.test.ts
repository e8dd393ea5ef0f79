import { messageOnly, profileResponse } from '@vitalwatch/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest, endingSession, SETTLE_BEFORE_SESSION_ENDS_MS } from '@/lib/api-client.ts';
import type { ApiError } from '@/lib/api-error.ts';
import { onSessionExpired } from '@/lib/session-events.ts';
import { storeTokens } from '@/lib/token-storage.ts';
import { jsonResponse, sampleUser } from './render.tsx';

const profileOk = () => jsonResponse(200, { success: true, message: 'ok', data: { user: sampleUser } });
const loggedOut = () => jsonResponse(200, { success: true, message: 'Logged out successfully' });

/**
 * A server that holds every profile request until `release` is called, answers the rest at once,
 * and drops a held request when its signal aborts (as a browser does): `sent` lists what reached it.
 */
function holdingServer() {
  const sent: string[] = [];
  const held: (() => void)[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
    sent.push(url.replace('/api/v1', ''));
    if (!url.endsWith('/user/profile')) return Promise.resolve(loggedOut());
    return new Promise<Response>((resolve, reject) => {
      held.push(() => resolve(profileOk()));
      init.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
    });
  });
  const release = () => {
    for (const answer of held.splice(0)) answer();
  };
  return { sent, release };
}

const profile = () => apiRequest('/user/profile', { method: 'GET', schema: profileResponse });
const logOut = () => apiRequest('/user/logout', { schema: messageOnly, endsSession: true });

beforeEach(() => storeTokens({ accessToken: 'A1', refreshToken: 'R1' }));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  localStorage.clear();
});

describe('ending the session', () => {
  it('lets the requests under way finish before its call goes out', async () => {
    const server = holdingServer();
    const underWay = profile();
    const ended = endingSession(logOut);
    await vi.waitFor(() => expect(server.sent).toEqual(['/user/profile']));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.sent).toEqual(['/user/profile']);

    server.release();
    expect((await underWay).data.user.username).toBe('ada');
    expect((await ended).message).toBe('Logged out successfully');
    expect(server.sent).toEqual(['/user/profile', '/user/logout']);
  });

  it('refuses a new request of the session meanwhile, without sending it, as signed out', async () => {
    const server = holdingServer();
    const underWay = profile();
    const ended = endingSession(logOut);
    const refused = await profile().catch((error: unknown) => error as ApiError);
    expect(refused).toMatchObject({ code: 'NO_TOKEN', message: 'No authentication token found.' });
    expect(server.sent).toEqual(['/user/profile']);
    server.release();
    await Promise.all([underWay, ended]);

    // Once it is over (or failed), requests go out again.
    server.release();
    const later = profile();
    await vi.waitFor(() => expect(server.sent).toHaveLength(3));
    server.release();
    await expect(later).resolves.toMatchObject({ success: true });
  });

  it('cancels what is still under way after its wait, and ends the session anyway', async () => {
    vi.useFakeTimers();
    const expired = vi.fn();
    const unsubscribe = onSessionExpired(expired);
    const server = holdingServer();
    const underWay = profile().catch((error: unknown) => error);
    const ended = endingSession(logOut);
    await vi.advanceTimersByTimeAsync(SETTLE_BEFORE_SESSION_ENDS_MS - 1);
    expect(server.sent).toEqual(['/user/profile']);
    await vi.advanceTimersByTimeAsync(1);
    await expect(ended).resolves.toMatchObject({ message: 'Logged out successfully' });
    expect(server.sent).toEqual(['/user/profile', '/user/logout']);
    expect(await underWay).toMatchObject({ name: 'AbortError' });
    unsubscribe();
    expect(expired).not.toHaveBeenCalled();
  });

  it('does not wait for public requests (a share link, the sign-in form)', async () => {
    const server = holdingServer();
    void apiRequest('/user/profile', { auth: 'none', schema: profileResponse });
    await expect(endingSession(logOut)).resolves.toMatchObject({ success: true });
    expect(server.sent).toEqual(['/user/profile', '/user/logout']);
  });
});
