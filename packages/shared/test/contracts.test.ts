import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Contract, contracts, defineContracts, urlOf } from '../src/index.ts';

describe('defineContracts', () => {
  const group = defineContracts('/thing', 'user', {
    list: { method: 'POST', path: '/list', summary: 'Things' },
    open: { method: 'GET', path: '/:id', auth: 'public', summary: 'One thing' },
  });

  it('puts the prefix before each path and states the auth once, overridden where one differs', () => {
    expect(group.list).toMatchObject({ path: '/thing/list', auth: 'user' });
    expect(group.open).toMatchObject({ path: '/thing/:id', auth: 'public' });
  });
});

describe('urlOf', () => {
  it('fills each :name with its encoded value and adds the query, leaving out what is undefined', () => {
    const contract = { path: '/export/report/:deviceId' };
    expect(urlOf(contract, { params: { deviceId: 'a/b c' } })).toBe('/export/report/a%2Fb%20c');
    expect(
      urlOf(contract, {
        params: { deviceId: 'd1' },
        query: { from: '2026-01-01T00:00:00.000Z', timeZone: 'Europe/Paris', to: undefined },
      }),
    ).toBe('/export/report/d1?from=2026-01-01T00%3A00%3A00.000Z&timeZone=Europe%2FParis');
  });

  it('refuses a path whose parameter has no value', () => {
    expect(() => urlOf({ path: '/share/revoke/:id' }, { params: {} })).toThrow(':id');
  });
});

describe('the contracts', () => {
  const every: Contract[] = Object.values(contracts).flatMap((group) => Object.values(group));

  it('name each endpoint once (method and path)', () => {
    const keys = every.map((c) => `${c.method} ${c.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('declare a schema for every :name of their path, and a reply (JSON or a file) for each', () => {
    for (const contract of every) {
      const names = [...contract.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
      const params = contract.params instanceof z.ZodObject ? Object.keys(contract.params.shape) : [];
      expect(params.sort(), contract.path).toEqual(names.sort());
      expect(Boolean(contract.response) !== Boolean(contract.produces), contract.path).toBe(true);
    }
  });
});
