import { describe, expect, it } from 'vitest';
import { genericPlanConfig } from '../src/db/plan-routing-pool.ts';

const GENERIC = '-c plan_cache_mode=force_generic_plan';
const of = (connectionString: string, env: NodeJS.ProcessEnv = {}) =>
  genericPlanConfig({ connectionString, max: 20, statement_timeout: 15_000 }, env);

/**
 * What the marked statements' pool connects with (on PostgreSQL, prepared-plans.test.ts sees its
 * connections in that mode): the URL as node-postgres reads it, GENERIC after its own options.
 */
describe('genericPlanConfig', () => {
  it('adds the setting to a URL without options, keeping every other part and the pool settings', () => {
    const config = of('postgresql://a:p%40ss@db.example:6432/vw?sslmode=disable');
    expect(config).toMatchObject({
      user: 'a',
      password: 'p@ss',
      host: 'db.example',
      port: '6432',
      database: 'vw',
      max: 20,
      statement_timeout: 15_000,
      options: GENERIC,
    });
    expect(config.ssl).toBe(false);
    expect(config).not.toHaveProperty('connectionString');
  });

  it("puts it after the URL's own options, the last given as node-postgres takes it", () => {
    expect(of('postgres://u@h/db?options=-c%20jit%3Doff&application_name=vw')).toMatchObject({
      options: `-c jit=off ${GENERIC}`,
      application_name: 'vw',
    });
    expect(of('postgres://u@h/db?options=-c%20a%3D1&options=-c%20b%3D2').options).toBe(`-c b=2 ${GENERIC}`);
  });

  it('reads a URL with spaces or a bare percent sign as node-postgres does', () => {
    expect(of('postgres://u:p%zz@h/db?options=-c jit=off')).toMatchObject({
      password: 'p%zz',
      options: `-c jit=off ${GENERIC}`,
    });
  });

  it('keeps PGOPTIONS when the URL has no options, as node-postgres would have used them', () => {
    expect(of('postgres://u@h/db', { PGOPTIONS: '-c search_path=vw' }).options).toBe(
      `-c search_path=vw ${GENERIC}`,
    );
    expect(of('postgres://u@h/db?options=-c%20jit%3Doff', { PGOPTIONS: '-c search_path=vw' }).options).toBe(
      `-c jit=off ${GENERIC}`,
    );
  });

  it('keeps a socket directory that new URL would refuse', () => {
    expect(of('postgres://postgres@/vw?host=/var/run/postgresql')).toMatchObject({
      host: '/var/run/postgresql',
      database: 'vw',
      options: GENERIC,
    });
  });
});
