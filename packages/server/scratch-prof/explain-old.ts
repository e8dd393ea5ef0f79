import { fleetDeviceQuery } from '@vitalwatch/shared';
import pg from 'pg';
import { createDatabase } from '/tmp/old/packages/server/src/db/index.ts';
import { devicePage } from '/tmp/old/packages/server/src/modules/fleet/repository.ts';

const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
await admin.connect();
if (process.argv[2] === 'seed') {
  await admin.query('drop database if exists fleet_explain');
  await admin.query('create database fleet_explain');
}
await admin.end();
const url = 'postgres://postgres@127.0.0.1:5432/fleet_explain';
const database = await createDatabase({ databaseUrl: url });
const c = new pg.Client({ connectionString: url });
await c.connect();
if (process.argv[2] === 'seed') {
  await database.migrate();
  await c.query(`insert into devices (device_name, activation_code, api_auth_code, last_update, battery)
       select 'Bench wristband ' || lpad(n::text, 5, '0'), upper(substr(md5('a' || n), 1, 8)),
              md5('k' || n) || md5('q' || n),
              now() - case when n % 97 = 0 then interval '2 hours' else interval '1 minute' end,
              (n % 100)::real
       from generate_series(1, 30000) n`);
  await c.query(`insert into users (full_name, username, email, password_hash)
       select 'Bench Person ' || n, 'benchperson' || n, 'benchperson' || n || '@example.com', 'x'
       from generate_series(1, 10000) n`);
  await c.query('vacuum analyze');
}
for (const qs of [{}, { sort: 'name', dir: 'asc' }, { sort: 'battery', dir: 'asc' }]) {
  const q = fleetDeviceQuery.parse(qs);
  const { sql, params } = devicePage(database.db as never, q).toSQL();
  const r = await c.query(`explain (analyze, buffers) ${sql}`, params);
  console.log('=====', JSON.stringify(qs));
  console.log(r.rows.map((x) => x['QUERY PLAN']).join('\n'));
}
await c.end();
await database.close();
