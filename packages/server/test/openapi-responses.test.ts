import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { INGEST_BODY_LIMIT } from '../src/modules/ingest/routes.ts';
import { insertDevice } from './admin-helpers.ts';
import { createDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, unique, useTestApp } from './helpers.ts';
import { fetchDocument, operationsOf, responseChecker } from './openapi-document.ts';

/** Real answers, success and error, checked against the statuses and schemas the document gives. */
describe.each(dbTargets())('answers match the OpenAPI document ($name)', (target) => {
  const built = useTestApp(target, {
    loginLimits: { perIpPerMinute: 5, perAccountFailures: 10, perAccountWindowMs: 60_000 },
  });

  async function checked(
    request: {
      method: string;
      url: string;
      headers?: Record<string, string>;
      payload?: unknown;
      remoteAddress?: string;
    },
    path: string,
  ) {
    const check = responseChecker(await fetchDocument(built()));
    const res = await built().app.inject(request as never);
    const problem = check(
      request.method,
      path,
      res.statusCode,
      res.headers['content-type'] as string,
      res.body,
    );
    return { res, problem };
  }

  it('every operation, called without credentials, answers as documented (401 where it has security)', async () => {
    const document = await fetchDocument(built());
    const check = responseChecker(document);
    const problems: string[] = [];
    for (const { method, path, operation } of operationsOf(document)) {
      const url = path.replace(/\{\w+\}/g, randomUUID());
      const res = await built().app.inject({
        method: method as 'GET',
        url,
        ...(method === 'GET' ? {} : { payload: {} }),
      });
      const contentType = res.headers['content-type'] as string | undefined;
      const problem = check(method, path, res.statusCode, contentType, res.body);
      if (problem) problems.push(problem);
      const secured = (operation.security ?? []).length > 0;
      if (secured !== (res.statusCode === 401))
        problems.push(`${method} ${path}: security ${secured}, got ${res.statusCode}`);
    }
    expect(problems).toEqual([]);
  });

  it('a signed-in user: 200, 403 on an admin route, 404 for a device not theirs, 400 with issues, 409, 415', async () => {
    const user = await signup(built());
    const profile = await checked(
      { method: 'GET', url: '/api/v1/user/profile', headers: user.auth },
      '/api/v1/user/profile',
    );
    expect([profile.res.statusCode, profile.problem]).toEqual([200, undefined]);

    const admin = await checked(
      { method: 'POST', url: '/api/v1/admin/stats', headers: user.auth },
      '/api/v1/admin/stats',
    );
    expect([admin.res.statusCode, admin.problem]).toEqual([403, undefined]);

    const other = await insertDevice(built().ctx.db);
    const fetch = await checked(
      { method: 'POST', url: `/api/v1/health/fetch/${other}`, headers: user.auth, payload: {} },
      '/api/v1/health/fetch/{deviceId}',
    );
    expect([fetch.res.statusCode, fetch.problem]).toEqual([404, undefined]);

    const share = await checked(
      {
        method: 'POST',
        url: '/api/v1/share/create',
        headers: user.auth,
        payload: { deviceId: other, days: 3 },
      },
      '/api/v1/share/create',
    );
    expect([share.res.statusCode, share.problem]).toEqual([400, undefined]);
    expect(share.res.json().issues).toEqual([expect.objectContaining({ path: 'days' })]);

    const disable = await checked(
      {
        method: 'POST',
        url: '/api/v1/user/two-factor/disable',
        headers: user.auth,
        payload: { password: user.password, code: '123456' },
      },
      '/api/v1/user/two-factor/disable',
    );
    expect([disable.res.statusCode, disable.problem]).toEqual([409, undefined]);

    const typed = await checked(
      {
        method: 'POST',
        url: '/api/v1/user/update-name',
        headers: { ...user.auth, 'content-type': 'application/xml' },
        payload: '<name/>',
      },
      '/api/v1/user/update-name',
    );
    expect([typed.res.statusCode, typed.problem]).toEqual([415, undefined]);
  });

  it('an admin: 201 on creating a user, 409 when the name is taken', async () => {
    const admin = await createAdmin(built());
    const username = unique('taken');
    const payload = {
      fullName: 'Someone',
      username,
      email: `${username}@example.com`,
      password: 'Passw0rd!',
      role: 'user',
    };
    const request = { method: 'POST', url: '/api/v1/admin/add-user', headers: admin.auth, payload };
    const created = await checked(request, '/api/v1/admin/add-user');
    expect([created.res.statusCode, created.problem]).toEqual([201, undefined]);
    const again = await checked(request, '/api/v1/admin/add-user');
    expect([again.res.statusCode, again.problem]).toEqual([409, undefined]);
  });

  it('a device: 202 for a batch, 400 for 501 readings, 413 for a body over the limit', async () => {
    const admin = await createAdmin(built());
    const device = await createDevice(built(), admin);
    const headers = { 'x-api-key': device.apiAuthCode };
    const path = '/api/v1/ingest/health';
    const post = (payload: unknown) => checked({ method: 'POST', url: path, headers, payload }, path);

    const batch = await post([{ heartRate: 70 }, { spo2: 97 }]);
    expect([batch.res.statusCode, batch.problem]).toEqual([202, undefined]);
    const tooMany = await post(Array.from({ length: 501 }, () => ({ heartRate: 70 })));
    expect([tooMany.res.statusCode, tooMany.problem]).toEqual([400, undefined]);
    const tooLarge = await post({ messageId: 'x'.repeat(INGEST_BODY_LIMIT), heartRate: 70 });
    expect([tooLarge.res.statusCode, tooLarge.problem]).toEqual([413, undefined]);
  });

  it('a public route under its rate limit: 401, then 429 with the documented body', async () => {
    const path = '/api/v1/user/refresh';
    const answers: number[] = [];
    let last: Awaited<ReturnType<typeof checked>> | undefined;
    for (let i = 0; i < 6; i += 1) {
      // An address of its own: the limit counts per address.
      const request = {
        method: 'POST',
        url: path,
        payload: { refreshToken: 'x' },
        remoteAddress: '192.0.2.7',
      };
      last = await checked(request, path);
      expect(last.problem).toBeUndefined();
      answers.push(last.res.statusCode);
    }
    expect(answers).toEqual([401, 401, 401, 401, 401, 429]);
    expect(last?.res.headers['retry-after']).toBeDefined();
  });
});
