import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { dbTargets, signup, useTestApp } from './helpers.ts';
import { browsersOf, CHROME_UA, userWithBrowsers } from './push-fixtures.ts';
import { Subscriber } from './push-peer.ts';

const endpoint = () => `https://push.example.com/send/${crypto.randomUUID()}`;

describe.each(dbTargets())('connected browsers and alert emails API on $name', (target) => {
  const built = useTestApp(target);
  const inject = (opts: InjectOptions) => built().app.inject(opts);

  it('answers 503 for the public key when push is not configured', async () => {
    const res = await inject({ method: 'GET', url: '/api/v1/push/public-key' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ success: false, code: 'PUSH_NOT_CONFIGURED' });
  });

  it("lists the caller's browsers without endpoints or keys", async () => {
    const browser = new Subscriber(endpoint());
    const user = await userWithBrowsers(built(), browser);
    await userWithBrowsers(built(), new Subscriber(endpoint()));
    const res = await inject({ method: 'POST', url: '/api/v1/push/subscriptions', headers: user.auth });
    expect(res.statusCode).toBe(200);
    const [only, ...rest] = res.json().data.subscriptions;
    expect(rest).toEqual([]);
    expect(only).toEqual({
      _id: expect.any(String),
      userAgent: CHROME_UA,
      pushService: 'push.example.com',
      createdAt: expect.any(String),
      lastSuccessAt: null,
      lastReceiptAt: null,
      notReceivingSince: null,
    });
    expect(res.body).not.toContain(browser.endpoint);
    expect(res.body).not.toContain(browser.toJSON().keys.auth);
  });

  it('removes a browser with POST …/delete and with DELETE, after which the profile no longer counts it', async () => {
    const user = await userWithBrowsers(built(), new Subscriber(endpoint()), new Subscriber(endpoint()));
    const [first, second] = await browsersOf(built(), user);
    const viaPost = await inject({
      method: 'POST',
      url: `/api/v1/push/subscriptions/${first?._id}/delete`,
      headers: user.auth,
    });
    expect(viaPost.statusCode).toBe(200);
    const viaDelete = await inject({
      method: 'DELETE',
      url: `/api/v1/push/subscriptions/${second?._id}`,
      headers: user.auth,
    });
    expect(viaDelete.statusCode).toBe(200);
    const profile = await inject({ method: 'GET', url: '/api/v1/user/profile', headers: user.auth });
    expect(profile.json().data.user.fcmTokens).toEqual([]);
  });

  it('disconnects this browser on sign-out by endpoint, only for the caller, idempotently', async () => {
    const browser = new Subscriber(endpoint());
    const owner = await userWithBrowsers(built(), browser);
    const other = await signup(built());
    const unsubscribe = (auth: { authorization: string }) =>
      inject({
        method: 'POST',
        url: '/api/v1/push/unsubscribe',
        headers: auth,
        payload: { endpoint: browser.endpoint },
      });
    expect((await unsubscribe(other.auth)).statusCode).toBe(200);
    expect(await browsersOf(built(), owner)).toHaveLength(1);
    expect((await unsubscribe(owner.auth)).statusCode).toBe(200);
    expect(await browsersOf(built(), owner)).toEqual([]);
    expect((await unsubscribe(owner.auth)).statusCode).toBe(200);
    const bad = await inject({
      method: 'POST',
      url: '/api/v1/push/unsubscribe',
      headers: owner.auth,
      payload: { endpoint: 'not a url' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it("answers 404 for another user's browser and leaves it connected", async () => {
    const owner = await userWithBrowsers(built(), new Subscriber(endpoint()));
    const other = await signup(built());
    const [browser] = await browsersOf(built(), owner);
    for (const opts of [
      { method: 'POST', url: `/api/v1/push/subscriptions/${browser?._id}/delete` },
      { method: 'DELETE', url: `/api/v1/push/subscriptions/${browser?._id}` },
      { method: 'DELETE', url: '/api/v1/push/subscriptions/not-a-uuid' },
    ] as const) {
      const res = await inject({ ...opts, headers: other.auth });
      expect(res.statusCode).toBe(404);
    }
    expect(await browsersOf(built(), owner)).toHaveLength(1);
  });

  it('answers 401 without a token and 400 for a malformed id', async () => {
    for (const opts of [
      { method: 'POST', url: '/api/v1/push/subscriptions' },
      { method: 'DELETE', url: `/api/v1/push/subscriptions/${crypto.randomUUID()}` },
      { method: 'POST', url: '/api/v1/user/alert-emails', payload: { enabled: true } },
      { method: 'POST', url: '/api/v1/push/unsubscribe', payload: { endpoint: endpoint() } },
    ] as const) {
      expect((await inject(opts)).statusCode).toBe(401);
    }
    const user = await signup(built());
    const res = await inject({
      method: 'DELETE',
      url: `/api/v1/push/subscriptions/${'x'.repeat(65)}`,
      headers: user.auth,
    });
    expect(res.statusCode).toBe(400);
  });

  it('turns alert emails on and off and returns the user', async () => {
    const user = await signup(built());
    expect(user.user.alertEmails).toBe(false);
    const on = await inject({
      method: 'POST',
      url: '/api/v1/user/alert-emails',
      headers: user.auth,
      payload: { enabled: true },
    });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({
      success: true,
      message: 'Alert emails turned on',
      data: { user: { alertEmails: true } },
    });
    const off = await inject({
      method: 'POST',
      url: '/api/v1/user/alert-emails',
      headers: user.auth,
      payload: { enabled: false },
    });
    expect(off.json().data.user.alertEmails).toBe(false);
    const bad = await inject({
      method: 'POST',
      url: '/api/v1/user/alert-emails',
      headers: user.auth,
      payload: { enabled: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues).toEqual([expect.objectContaining({ path: 'enabled' })]);
  });
});
