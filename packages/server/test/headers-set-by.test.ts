import { describe, expect, it } from 'vitest';
import { headersSetBy } from '../src/http/header-rules.ts';

/** `headersSetBy`: the headers a middleware sets, found once, and what it refuses to fix at start. */
describe('headersSetBy', () => {
  it('records the headers a middleware sets, in order', () => {
    const headers = headersSetBy((_req, res, next) => {
      res.setHeader('X-One', 'a');
      res.removeHeader('X-Powered-By');
      res.setHeader('X-Two', 2);
      next();
    });
    expect(headers).toEqual([
      ['X-One', 'a'],
      ['X-Two', '2'],
    ]);
  });

  it('refuses a middleware whose headers could vary or come later', () => {
    expect(() =>
      headersSetBy((req, res, next) => {
        res.setHeader('X-Path', String(req.url));
        next();
      }),
    ).toThrow("the request's url");
    expect(() => headersSetBy((_req, res, next) => next(res.getHeader('x')))).toThrow(
      "the response's getHeader",
    );
    expect(() => headersSetBy((_req, res) => res.removeHeader('Server'))).toThrow('removed Server');
    expect(() => headersSetBy((_req, _res, next) => setTimeout(next, 1))).toThrow('did not finish at once');
    expect(() => headersSetBy((_req, _res, next) => next(new Error('broken')))).toThrow('broken');
  });
});
