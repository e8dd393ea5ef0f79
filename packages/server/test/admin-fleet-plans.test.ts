import { fleetDeviceQuery, fleetUserQuery } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Tx } from '../src/db/index.ts';
import * as repo from '../src/modules/fleet/repository.ts';
import { dbTargets, useTestApp } from './helpers.ts';

interface Query {
  toSQL(): { sql: string; params: unknown[] };
}

/** The plan the database picks for a query when a scan of the whole table is ruled out. */
async function planWithoutScans(tx: Tx, query: Query): Promise<string> {
  const { sql: text, params } = query.toSQL();
  const inlined = text.replace(/\$(\d+)/g, (_, i: string) => {
    const value = params[Number(i) - 1];
    return typeof value === 'number' ? String(value) : `'${String(value).replaceAll("'", "''")}'`;
  });
  await tx.execute(sql`set local enable_seqscan = off`);
  const res = (await tx.execute(sql.raw(`explain ${inlined}`))) as { rows: Record<string, string>[] };
  return res.rows.map((row) => Object.values(row).join(' ')).join('\n');
}

/**
 * The admin's fleet at 30,000 devices rests on indexes the queries must be able to use (issue 31):
 * a test database is too small for the planner to prefer them, so table scans are ruled out and
 * the plan must name the index rather than sort or filter every row.
 */
describe.each(dbTargets())('the admin fleet queries use their indexes on $name', (target) => {
  const built = useTestApp(target);
  const plan = (make: (tx: Tx) => Query) =>
    built().ctx.db.transaction((tx) => planWithoutScans(tx, make(tx)));

  it('pages by battery along its index, both ways', async () => {
    for (const dir of ['asc', 'desc'] as const) {
      const text = await plan((tx) => repo.devicePage(tx, fleetDeviceQuery.parse({ sort: 'battery', dir })));
      expect(text).toContain('devices_battery_key_idx');
    }
  });

  it('finds silent devices and orders by last seen along the last-seen index (migration 0031)', async () => {
    for (const status of ['online', 'offline', 'stale', 'never'] as const) {
      const text = await plan((tx) =>
        repo.devicePage(tx, fleetDeviceQuery.parse({ status, sort: 'lastSeen', dir: 'asc' })),
      );
      expect(text).toContain('devices_seen_key_idx');
      expect(text).not.toContain('WindowAgg');
    }
  });

  it("searches users' name, username and e-mail through the trigram index", async () => {
    for (const sort of ['name', 'created'] as const) {
      const text = await plan((tx) => repo.userPage(tx, fleetUserQuery.parse({ q: 'Person 77', sort })));
      expect(text).toContain('users_search_text_trgm_idx');
    }
  });

  it("counts a first page's whole match in the page's own query, reading a searched match once", async () => {
    const occurrences = (text: string, word: string) => text.split(word).length - 1;
    // A search: the page reads its whole match, counted by a window beside it.
    const search = await plan((tx) => repo.devicePage(tx, fleetDeviceQuery.parse({ q: 'wristband 0123' })));
    expect(search).toContain('WindowAgg');
    const people = await plan((tx) => repo.userPage(tx, fleetUserQuery.parse({ q: 'Person 77' })));
    expect(people).toContain('WindowAgg');
    expect(occurrences(people, 'users_search_text_trgm_idx')).toBe(1);
    // A filter with an indexed order: the page still walks its index, the match counted once beside it.
    const valid = await plan((tx) =>
      repo.devicePage(tx, fleetDeviceQuery.parse({ validity: 'valid', sort: 'name', dir: 'asc' })),
    );
    expect(valid).toMatch(/InitPlan/);
    expect(valid).not.toContain('WindowAgg');
    expect(valid).toContain('devices_name_key_idx');
    // No filter: the page still walks its sort index and reads the kept count (migration 0027),
    // not every device.
    for (const sort of ['created', 'name', 'battery', 'lastSeen'] as const) {
      const all = await plan((tx) => repo.devicePage(tx, fleetDeviceQuery.parse({ sort })));
      expect(all).toContain('row_counts_pkey');
      expect(all).not.toContain('WindowAgg');
      expect(all).toMatch(/devices_(created|name|battery|seen)_key_idx/);
    }
    const everyone = await plan((tx) => repo.userPage(tx, fleetUserQuery.parse({})));
    expect(everyone).toContain('row_counts_pkey');
  });
});
