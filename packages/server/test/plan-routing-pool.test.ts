import { parse } from 'pg-connection-string';
import { describe, expect, it } from 'vitest';
import { withGenericPlans } from '../src/db/plan-routing-pool.ts';

const GENERIC = '-c plan_cache_mode=force_generic_plan';

/** What node-postgres connects with, for the marked statements' pool (see prepared-plans.test.ts on PostgreSQL). */
describe('withGenericPlans', () => {
  it('adds the setting to a URL without options, keeping every other part', () => {
    const config = parse(withGenericPlans('postgresql://a:p%40ss@db.example:6432/vw?sslmode=require'));
    expect(config).toMatchObject({
      user: 'a',
      password: 'p@ss',
      host: 'db.example',
      port: '6432',
      database: 'vw',
      options: GENERIC,
    });
    expect(config.ssl).toBeTruthy();
  });

  it("puts it after the URL's own options, which still apply", () => {
    const url = withGenericPlans('postgres://u@h/db?options=-c%20jit%3Doff&application_name=vw');
    expect(parse(url)).toMatchObject({ options: `-c jit=off ${GENERIC}`, application_name: 'vw' });
  });

  it('keeps a socket directory that new URL would refuse', () => {
    const url = withGenericPlans('postgres://postgres@/vw?host=/var/run/postgresql');
    expect(parse(url)).toMatchObject({ host: '/var/run/postgresql', database: 'vw', options: GENERIC });
  });
});
