import { migrate } from 'drizzle-orm/pglite/migrator';
import { describe, expect, it } from 'vitest';
import { drizzleOverPglite, newPglite } from '../src/db/index.ts';
import { MIGRATIONS, migrationsBefore } from './helpers.ts';

describe('migration 0034', () => {
  it("keeps each device's newest alert by device time, found in the alerts an earlier release stored", async () => {
    const client = newPglite();
    const db = drizzleOverPglite(client);
    await migrate(db, { migrationsFolder: migrationsBefore('0034') });
    // Three devices; on each, alerts arrived in another order than they happened (buffered ones).
    await client.exec(`
      insert into devices (id, device_name, activation_code, api_auth_code)
        select ('00000000-0000-4000-8000-00000000000' || d)::uuid, 'd' || d, 'act-' || d, 'key-' || d
        from generate_series(1, 3) d;
      insert into alerts (device_id, alert_type, alert_title, alert_message, recorded_at, created_at)
        select ('00000000-0000-4000-8000-00000000000' || (s % 3 + 1))::uuid, 'SOS', 'SOS', 'SOS pressed',
          now() - make_interval(mins => (s * 17) % 100), now() - make_interval(mins => s)
        from generate_series(1, 60) s;`);
    await migrate(db, { migrationsFolder: MIGRATIONS });
    const newest = `select device_id::text, id::text from (
      select device_id, id, row_number() over (partition by device_id order by recorded_at desc, id desc) as r from alerts) t
      where r = 1 order by 1`;
    const kept = 'select device_id::text, latest_id::text as id from vw_counts.alert_counts order by 1';
    const expected = await client.query(newest);
    expect(expected.rows).toHaveLength(3);
    expect((await client.query(kept)).rows).toEqual(expected.rows);
    // Kept from then on as alerts come and go.
    await client.exec(`
      insert into alerts (device_id, alert_type, alert_title, alert_message, recorded_at)
        values ('00000000-0000-4000-8000-000000000002', 'FALL', 'Fall detected', 'now', now());
      delete from alerts where id = (select id from alerts where device_id = '00000000-0000-4000-8000-000000000003'
        order by recorded_at desc, id desc limit 1);`);
    expect((await client.query(kept)).rows).toEqual((await client.query(newest)).rows);
    await client.close();
  });
});
