import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT } from '../src/app.ts';
import { postHealth } from './device-helpers.ts';
import { dbTargets, signup, type TestUser, useTestApp } from './helpers.ts';

const [pglite] = dbTargets();
const ALLOWED = 'http://app.example';
const METRICS_TOKEN = 'metrics-token-for-http-tests';

/** One raw HTTP/1.1 request on a socket (for what `inject` cannot send); resolves to the status line. */
function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n')) {
        resolve(answer.split('\r\n')[0]!);
        socket.destroy();
      }
    });
    socket.on('error', reject);
  });
}

describe('CORS_ORIGINS on the API and FHIR', () => {
  const built = useTestApp(pglite!, { corsOrigins: [ALLOWED] });
  let user: TestUser;
  beforeAll(async () => {
    user = await signup(built());
  });
  const preflight = (url: string, origin: string, method = 'GET') =>
    built().app.inject({
      method: 'OPTIONS',
      url,
      headers: {
        origin,
        'access-control-request-method': method,
        'access-control-request-headers': 'authorization, content-type',
      },
    });
  const corsHeaders = (headers: Record<string, unknown>) =>
    Object.keys(headers).filter((name) => name.startsWith('access-control-'));

  it('answers a preflight from an allowed origin with the methods, headers and max-age', async () => {
    for (const [url, method] of [
      ['/api/v1/user/profile', 'GET'],
      ['/api/v1/user/update-name', 'POST'],
      ['/fhir/R4/Observation', 'GET'],
    ] as const) {
      const res = await preflight(url, ALLOWED, method);
      expect(res.statusCode, url).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
      expect(String(res.headers['access-control-allow-methods']).split(', ')).toContain(method);
      expect(res.headers['access-control-allow-headers']).toBe('Authorization, Content-Type, X-Api-Key');
      expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0);
      expect(res.headers.vary).toContain('Origin');
    }
    const ingest = await preflight('/api/v1/ingest/health', ALLOWED, 'POST');
    expect(ingest.headers['access-control-allow-headers']).toContain('X-Api-Key');
  });

  it('marks actual answers to an allowed origin, errors included, and varies on Origin', async () => {
    const ok = await built().app.inject({
      method: 'GET',
      url: '/api/v1/user/profile',
      headers: { ...user.auth, origin: ALLOWED },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(ok.headers['access-control-expose-headers']).toContain('WWW-Authenticate');
    expect(ok.headers.vary).toContain('Origin');
    const refused = await built().app.inject({
      method: 'GET',
      url: '/fhir/R4/Observation?device=x',
      headers: { origin: ALLOWED },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe(ALLOWED);
  });

  it('sends no CORS header to any other origin', async () => {
    const pre = await preflight('/api/v1/user/profile', 'http://evil.example');
    expect(corsHeaders(pre.headers)).toEqual([]);
    expect(pre.statusCode).not.toBe(204);
    const res = await built().app.inject({
      method: 'GET',
      url: '/api/v1/user/profile',
      headers: { ...user.auth, origin: 'http://evil.example' },
    });
    expect(res.statusCode).toBe(200);
    expect(corsHeaders(res.headers)).toEqual([]);
  });
});

describe('without CORS_ORIGINS: same origin only', () => {
  const built = useTestApp(pglite!);
  it('answers no preflight and marks no answer', async () => {
    const pre = await built().app.inject({
      method: 'OPTIONS',
      url: '/api/v1/user/profile',
      headers: { origin: ALLOWED, 'access-control-request-method': 'GET' },
    });
    expect(Object.keys(pre.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    const res = await built().app.inject({ method: 'GET', url: '/healthz', headers: { origin: ALLOWED } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('HTTP semantics', () => {
  const built = useTestApp(pglite!, { metricsToken: METRICS_TOKEN });
  let user: TestUser;
  beforeAll(async () => {
    user = await signup(built());
  });

  it('challenges a 401: Bearer, with error="invalid_token" when a token was given and is bad', async () => {
    const none = await built().app.inject({ method: 'GET', url: '/api/v1/user/profile' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="VitalWatch"');
    const bad = await built().app.inject({
      method: 'GET',
      url: '/api/v1/user/profile',
      headers: { authorization: 'Bearer not.a.token' },
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.headers['www-authenticate']).toBe('Bearer realm="VitalWatch", error="invalid_token"');
    const login = await built().app.inject({
      method: 'POST',
      url: '/api/v1/user/login',
      payload: { user: { username: user.user.username, password: 'wrong-password' } },
    });
    expect(login.statusCode).toBe(401);
    expect(login.headers['www-authenticate']).toBe('Bearer realm="VitalWatch"');
    const fhir = await built().app.inject({
      method: 'GET',
      url: '/fhir/R4/Observation?device=x',
      headers: { authorization: 'Bearer not.a.token' },
    });
    expect(fhir.statusCode).toBe(401);
    expect(fhir.headers['content-type']).toContain('application/fhir+json');
    expect(fhir.headers['www-authenticate']).toBe('Bearer realm="VitalWatch", error="invalid_token"');
    const metrics = await built().app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer wrong' },
    });
    expect(metrics.headers['www-authenticate']).toBe('Bearer realm="metrics", error="invalid_token"');
  });

  it('challenges a device without a valid X-Api-Key', async () => {
    const none = await postHealth(built(), undefined, { spo2: 97 });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('ApiKey realm="devices", header="X-Api-Key"');
    const wrong = await postHealth(built(), 'not-a-device-code', { spo2: 97 });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['www-authenticate']).toBe(
      'ApiKey realm="devices", header="X-Api-Key", error="invalid_key"',
    );
  });

  it('takes the auth scheme in any case', async () => {
    const token = user.auth.authorization.slice('Bearer '.length);
    for (const scheme of ['bearer', 'BEARER']) {
      const res = await built().app.inject({
        method: 'GET',
        url: '/api/v1/user/profile',
        headers: { authorization: `${scheme} ${token}` },
      });
      expect(res.statusCode, scheme).toBe(200);
      const metrics = await built().app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `${scheme} ${METRICS_TOKEN}` },
      });
      expect(metrics.statusCode, scheme).toBe(200);
    }
  });

  it('answers a known path asked with another method 405 with Allow, an unknown one 404', async () => {
    for (const [method, url, allow] of [
      ['GET', '/api/v1/user/login', 'POST'],
      ['DELETE', '/api/v1/user/profile', 'GET, HEAD'],
      ['GET', '/api/v1/alert/acknowledge/123', 'POST'],
      ['GET', '/api/v1/push/subscriptions/abc', 'DELETE'],
      ['POST', '/healthz', 'GET, HEAD'],
    ] as const) {
      const res = await built().app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(405);
      expect(res.headers.allow, url).toBe(allow);
      expect(res.json()).toEqual({
        success: false,
        message: 'This path does not take that method',
        code: 'METHOD_NOT_ALLOWED',
      });
    }
    const unknown = await built().app.inject({ method: 'GET', url: '/api/v1/user/nothing-here' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers.allow).toBeUndefined();
  });

  it('refuses a request with two Host headers', async () => {
    const address = await built().app.listen({ host: '127.0.0.1', port: 0 });
    const port = Number(new URL(address).port);
    const twice = await rawRequest(
      port,
      'GET /healthz HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\nConnection: close\r\n\r\n',
    );
    expect(twice).toBe('HTTP/1.1 400 Bad Request');
    const once = await rawRequest(
      port,
      'GET /healthz HTTP/1.1\r\nHost: a.example\r\nConnection: close\r\n\r\n',
    );
    expect(once).toBe('HTTP/1.1 200 OK');
  });

  it('sets Permissions-Policy, and X-Frame-Options agrees with frame-ancestors', async () => {
    for (const url of ['/healthz', '/api/v1/user/profile', '/docs/']) {
      const res = await built().app.inject({ method: 'GET', url });
      const policy = String(res.headers['permissions-policy']);
      for (const feature of ['camera=()', 'microphone=()', 'geolocation=()', 'usb=()', 'serial=()'])
        expect(policy, url).toContain(feature);
      expect(res.headers['x-frame-options'], url).toBe('DENY');
    }
    const csp = (await built().app.inject({ method: 'GET', url: '/healthz' })).headers[
      'content-security-policy'
    ];
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it('sends the same security headers on errors as on answers', async () => {
    const headersOf = async (url: string, headers: Record<string, string> = {}, payload?: string) => {
      const res = await built().app.inject(
        payload === undefined
          ? { method: 'GET', url, headers }
          : { method: 'POST', url, headers: { ...headers, 'content-type': 'application/json' }, payload },
      );
      const {
        date,
        etag,
        vary,
        connection,
        'content-length': _length,
        'content-type': _type,
        ...rest
      } = res.headers;
      const fixed = Object.entries(rest).filter(
        ([name]) => !name.startsWith('x-ratelimit') && name !== 'cache-control',
      );
      return { status: res.statusCode, fixed: Object.fromEntries(fixed) };
    };
    const ok = await headersOf('/healthz');
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.fixed).length).toBeGreaterThan(8);
    const tooLarge = JSON.stringify({ user: { username: 'x'.repeat(BODY_LIMIT) } });
    for (const [url, status, headers, payload] of [
      ['/api/v1/user/profile', 401, {}, undefined],
      ['/api/v1/no-such-route', 404, user.auth, undefined],
      ['/api/v1/health/fetch/not-a-device', 405, user.auth, undefined],
      ['/api/v1/user/login', 400, {}, '{"user":'],
      ['/api/v1/user/login', 413, {}, tooLarge],
    ] as const) {
      const error = await headersOf(url, headers, payload);
      expect(error.status, url).toBe(status);
      expect(error.fixed, url).toMatchObject(ok.fixed);
    }
  });

  it('answers sign-out with Clear-Site-Data, and the user signs in again', async () => {
    const res = await built().app.inject({
      method: 'POST',
      url: '/api/v1/user/logout',
      headers: user.auth,
      payload: { refreshToken: user.refreshToken },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['clear-site-data']).toBe('"cache", "storage"');
    const again = await built().app.inject({
      method: 'POST',
      url: '/api/v1/user/login',
      payload: { user: { username: user.user.username, password: user.password } },
    });
    expect(again.statusCode).toBe(200);
  });
});
