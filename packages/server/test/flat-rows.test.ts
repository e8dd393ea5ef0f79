import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { flatRows } from '../src/db/flat-rows.ts';
import { pushSubscriptions, users } from '../src/db/schema.ts';
import { dbTargets, signup, useTestApp } from './helpers.ts';

/**
 * The prepared selects of the hot reads map their rows with decoders worked out once
 * (`flatRows`): each row must be the object drizzle's own mapping makes, key for key and in the
 * same order, on both databases.
 */
describe.each(dbTargets())('rows mapped once a statement on $name', (target) => {
  const built = useTestApp(target);

  it('makes the rows drizzle makes: columns, a table as one object, decoded and aliased SQL, nulls of a left join', async () => {
    const { db } = built().ctx;
    const ann = await signup(built());
    await signup(built());
    const id = sql.placeholder('id');
    // A left-joined table's columns as one object are refused: drizzle makes it null when all are.
    const joinedWhole = db
      .select({ id: users.id, push: pushSubscriptions })
      .from(users)
      .leftJoin(pushSubscriptions, eq(pushSubscriptions.userId, users.id));
    expect(() => flatRows(joinedWhole.prepare('flat_rows_refused'))).toThrow('tables never null');
    const plain = (p: unknown) =>
      db
        .select({
          createdAt: users.createdAt,
          lastName: sql<string>`${users.fullName} || '!'`.as('last_name'),
          seen: sql<number>`42::bigint`.mapWith(Number),
          flag: sql<boolean>`${users.id} = ${p}::uuid`,
          nothing: sql<string | null>`null`,
          pushId: pushSubscriptions.id,
        })
        .from(users)
        .leftJoin(pushSubscriptions, eq(pushSubscriptions.userId, users.id))
        .orderBy(users.createdAt, users.id);
    const whole = (p: unknown) =>
      db
        .select({ user: users, recovery: sql<number>`1`.mapWith(Number) })
        .from(users)
        .where(eq(users.id, sql`${p}::uuid`));
    const values = { id: ann.user._id };
    /** Every key of `row`, nested ones too, in order. */
    const keysOf = (row: object): string[] =>
      Object.entries(row).flatMap(([k, v]) =>
        v !== null && typeof v === 'object' && !(v instanceof Date) ? [k, ...keysOf(v)] : [k],
      );
    for (const [name, query] of [
      ['flat_rows_plain', plain],
      ['flat_rows_whole', whole],
    ] as const) {
      const theirs = await query(id).prepare(`${name}_drizzle`).execute(values);
      const prepared = flatRows(query(id).prepare(`${name}_ours`));
      // The mapper is in place: were drizzle's property renamed, its own mapping would answer.
      expect(typeof (prepared as unknown as { customResultMapper: unknown }).customResultMapper).toBe(
        'function',
      );
      const ours = await prepared.execute(values);
      expect(theirs.length).toBeGreaterThan(0);
      expect(ours).toStrictEqual(theirs);
      ours.forEach((row, i) => {
        expect(keysOf(row)).toEqual(keysOf(theirs[i]!));
      });
    }
    const [first] = await flatRows(whole(id).prepare('flat_rows_types')).execute(values);
    expect(first?.user.createdAt).toBeInstanceOf(Date);
    expect(first?.user.id).toBe(ann.user._id);
    expect(first?.recovery).toBe(1);
    const rows = await flatRows(plain(id).prepare('flat_rows_nulls')).execute(values);
    expect(rows.map((r) => [r.seen, r.nothing, r.pushId])).toContainEqual([42, null, null]);
    expect(rows.filter((r) => r.flag)).toHaveLength(1);
  });
});
