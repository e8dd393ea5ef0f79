import { fleetDeviceQuery } from '@vitalwatch/shared';
import { createDatabase } from '../src/db/index.ts';
import { devicePage } from '../src/modules/fleet/repository.ts';

const database = await createDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:5432/fleet_explain' });
const q = fleetDeviceQuery.parse({});
for (let k = 0; k < 3; k++) {
  let t = performance.now();
  for (let i = 0; i < 2000; i++) devicePage(database.db as never, q);
  const construct = (performance.now() - t) / 2000;
  t = performance.now();
  for (let i = 0; i < 2000; i++) devicePage(database.db as never, q).toSQL();
  console.log(
    'construct',
    construct.toFixed(3),
    'construct+toSQL',
    ((performance.now() - t) / 2000).toFixed(3),
    'ms',
  );
}
await database.close();
