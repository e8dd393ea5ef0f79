import pg from 'pg';
import { fleetDeviceQuery } from '@vitalwatch/shared';
import { createDatabase } from '../src/db/index.ts';
import * as neu from '../src/modules/fleet/repository.ts';
import * as old from '/tmp/old/packages/server/src/modules/fleet/repository.ts';
const url = 'postgres://postgres@127.0.0.1:5432/fleet_explain';
const database = await createDatabase({ databaseUrl: url });
const c = new pg.Client({ connectionString: url });
await c.connect();
const q = fleetDeviceQuery.parse({});
const texts = { old: old.devicePage(database.db as never, q).toSQL(), neu: neu.devicePage(database.db as never, q).toSQL() };
const ticks = async () => { const r = await c.query('select pg_backend_pid() p'); const fs = await import('node:fs'); const f = fs.readFileSync(`/proc/${r.rows[0].p}/stat`,'utf8').split(') ')[1]!.split(' '); return Number(f[11]) + Number(f[12]); };
for (let round = 0; round < 3; round++)
  for (const [k, t] of Object.entries(texts)) {
    for (let i = 0; i < 50; i++) await c.query({ name: k, text: t.sql, values: t.params });
    const t0 = await ticks(); const w0 = performance.now();
    for (let i = 0; i < 1000; i++) await c.query({ name: k, text: t.sql, values: t.params });
    const t1 = await ticks();
    console.log(k, 'pg cpu ms/query', ((t1 - t0) * 10 / 1000).toFixed(3), 'wall', ((performance.now() - w0) / 1000).toFixed(3));
  }
await c.end(); await database.close();
