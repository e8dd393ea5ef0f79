import { PGlite, type QueryOptions } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERIC_PLAN, ServerPGlite, STATEMENTS_KEPT } from '../src/db/server-pglite.ts';

/**
 * A loop of PGlite queries must let the event loop turn: PGlite answers on this thread through
 * promises only, and a server whose outbox climbed an alarm storm's ladders read no request for
 * seconds (see `ServerPGlite`).
 */
describe('PGlite and the event loop', () => {
  const plain = new PGlite();
  const fair = new ServerPGlite();
  beforeAll(async () => {
    await Promise.all([plain.waitReady, fair.waitReady]);
  });
  afterAll(async () => {
    await plain.close();
    await fair.close();
  });

  /** What both databases answer. */
  type Answering = Pick<PGlite, 'query' | 'exec' | 'transaction'>;

  /** How many of `count` back-to-back statements ran before a timer set at the start fired. */
  async function doneWhenTimerFired(
    db: Answering,
    count: number,
    statement: (db: Answering) => Promise<unknown>,
  ) {
    let done = 0;
    let seen: number | undefined;
    setTimeout(() => {
      seen = done;
    }, 0);
    for (let i = 0; i < count; i++) {
      await statement(db);
      done++;
    }
    await new Promise((r) => setTimeout(r, 5));
    return seen;
  }

  const select = (db: Answering) => db.query('select 1');
  const transaction = (db: Answering) =>
    db.transaction(async (tx) => {
      await tx.query('select 1');
      await tx.query('select 2');
    });

  it('plain PGlite runs a loop of queries without a turn of the event loop (why ServerPGlite exists)', async () => {
    expect(await doneWhenTimerFired(plain, 300, select)).toBe(300);
  });

  it('ServerPGlite lets a timer fire during a loop of queries, transactions and scripts', async () => {
    expect(await doneWhenTimerFired(fair, 300, select)).toBeLessThan(300);
    expect(await doneWhenTimerFired(fair, 100, transaction)).toBeLessThan(100);
    expect(await doneWhenTimerFired(fair, 100, (db) => db.exec('select 1'))).toBeLessThan(100);
  });

  it('a query asked for from a timer runs between transactions asked for back to back, not after them all', async () => {
    let done = 0;
    let answeredAfter: number | undefined;
    setTimeout(() => {
      void fair.query<{ n: number }>('select 1 as n').then(() => {
        answeredAfter = done;
      });
    }, 0);
    for (let i = 0; i < 100; i++) {
      await transaction(fair);
      done++;
    }
    expect(answeredAfter).toBeLessThan(100);
  });

  it('answers and fails as PGlite does', async () => {
    expect((await fair.query<{ n: number }>('select $1::int as n', [7])).rows).toEqual([{ n: 7 }]);
    expect(
      await fair.transaction(async (tx) => (await tx.query<{ n: number }>('select 8 as n')).rows[0]?.n),
    ).toBe(8);
    await expect(fair.query('select from nowhere')).rejects.toThrow(/nowhere/);
  });

  describe('statements kept prepared', () => {
    const keptInDatabase = async () =>
      (
        await fair.query<{ n: number }>(
          "select count(*)::int as n from pg_prepared_statements where name like 'vw\\_%'",
        )
      ).rows[0]!.n;
    /** Both databases' whole result (rows, fields, command, counts), as JSON. */
    const answers = async (text: string, params: unknown[], options?: QueryOptions) => {
      const [ours, theirs] = [
        await fair.query(text, params, options),
        await plain.query(text, params, options),
      ];
      return { ours: JSON.stringify(ours), theirs: JSON.stringify(theirs) };
    };
    const sameAnswer = async (text: string, params: unknown[], options?: QueryOptions) => {
      const { ours, theirs } = await answers(text, params, options);
      expect(JSON.parse(ours)).toEqual(JSON.parse(theirs));
    };

    it('answers as PGlite answers, with the parameters and rows of every type the server uses', async () => {
      const text = `select $1::uuid as id, $2::timestamptz as at, $3::jsonb as doc, $4::int[] as ns,
        $5::text as none, $6::bool as yes, $7::numeric as n, $8::bytea as raw, now() - now() as gap`;
      const params = [
        '7d3c5a8e-7a6f-4a38-9c1f-2b0e3f1d9a11',
        new Date('2026-11-28T12:00:00.123Z'),
        { spo2: 97, tags: ['a', 'b'] },
        [1, 2, 3],
        null,
        true,
        '12.50',
        new Uint8Array([1, 2, 255]),
      ];
      // The drizzle driver's options: rows as arrays, its own parsers for dates.
      const drizzleLike: QueryOptions = { rowMode: 'array', parsers: { 1184: (v: string) => v } };
      for (let i = 0; i < 3; i++) {
        await sameAnswer(text, params);
        await sameAnswer(text, params, drizzleLike);
      }
      const result = await fair.query(text, params);
      expect(result.fields.map((f) => f.name)).toEqual([
        'id',
        'at',
        'doc',
        'ns',
        'none',
        'yes',
        'n',
        'raw',
        'gap',
      ]);
      expect(result.rows).toHaveLength(1);
    });

    it('counts rows written, returned and none, as PGlite counts them', async () => {
      for (const db of [fair, plain]) await db.exec('create table counted (id int primary key, v text)');
      await sameAnswer('insert into counted values ($1, $2), ($3, $4)', [1, 'a', 2, 'b']);
      await sameAnswer('update counted set v = $1 where id > $2 returning id', ['c', 0]);
      await sameAnswer('select * from counted where id = $1', [99]);
      await sameAnswer('delete from counted where id = $1', [1]);
      await sameAnswer('select count(*) from counted where v = $1', ['c'], { rowMode: 'array' });
    });

    it('prepares each text once, and keeps at most STATEMENTS_KEPT', async () => {
      const before = fair.preparedCount;
      for (let i = 0; i < 5; i++) await fair.query('select $1::int + 1 as n', [i]);
      expect(fair.preparedCount).toBe(before + 1);
      for (let i = 0; i < STATEMENTS_KEPT + 20; i++) await fair.query(`select ${i} as n, $1::int as m`, [i]);
      expect(fair.preparedCount).toBe(STATEMENTS_KEPT);
      const inDatabase = await fair.query<{ n: number }>(
        "select count(*)::int as n from pg_prepared_statements where name like 'vw\\_%'",
      );
      expect(inDatabase.rows[0]!.n).toBe(STATEMENTS_KEPT);
      // A statement dropped long ago is prepared again when asked for.
      expect((await fair.query<{ n: number; m: number }>('select 0 as n, $1::int as m', [5])).rows).toEqual([
        { n: 0, m: 5 },
      ]);
    });

    it('a table whose shape changed is read anew, not through the statement prepared before', async () => {
      await fair.exec('create table shape_change (a int); insert into shape_change values (1)');
      expect((await fair.query('select * from shape_change where a = $1', [1])).rows).toEqual([{ a: 1 }]);
      await fair.exec('alter table shape_change add column b text default $$x$$');
      expect((await fair.query('select * from shape_change where a = $1', [1])).rows).toEqual([
        { a: 1, b: 'x' },
      ]);
      expect(await keptInDatabase()).toBe(fair.preparedCount);
    });

    it('a statement refused for another reason is not run again, and leaves nothing prepared behind', async () => {
      await fair.exec('create table lone (id int); create table other (id int)');
      const refused = 'select * from lone l left join other o on o.id = l.id where l.id = $1 for update of o';
      for (let i = 0; i < 3; i++)
        await expect(fair.query(refused, [1])).rejects.toMatchObject({ code: '0A000' });
      expect(await keptInDatabase()).toBe(fair.preparedCount);
    });

    it("a cursor's rows take the cursor's columns, even where the statement was kept before it existed", async () => {
      await expect(fair.query('fetch 1 from later')).rejects.toMatchObject({ code: '34000' });
      await fair.exec('declare later cursor with hold for select 42 as answer, now()::date as day');
      const fetched = await fair.query<{ answer: number }>('fetch 1 from later');
      expect(fetched.rows[0]?.answer).toBe(42);
      expect(fetched.fields.map((f) => f.name)).toEqual(['answer', 'day']);
      await fair.exec('close later');
    });

    it('errors carry the statement and its parameters, notices reach the caller, odd column names stay columns', async () => {
      await expect(fair.query('select 1 / $1::int as n', [0])).rejects.toMatchObject({
        query: 'select 1 / $1::int as n',
        params: [0],
      });
      const notices: string[] = [];
      await fair.query("do $$ begin raise notice 'heard'; end $$", [], {
        onNotice: (n) => notices.push(n.message ?? ''),
      });
      expect(notices).toEqual(['heard']);
      await sameAnswer('select $1::int as "__proto__", 3 as x', [1]);
    });

    it("fails with the database's error and code, and the next query answers", async () => {
      await expect(fair.query('select 1 / $1::int as n', [0])).rejects.toMatchObject({ code: '22012' });
      await expect(fair.query('select 1 / $1::int as n', [0])).rejects.toMatchObject({ code: '22012' });
      expect((await fair.query('select 1 / $1::int as n', [1])).rows).toEqual([{ n: 1 }]);
      await expect(fair.query('select nothing from nowhere where x = $1', [1])).rejects.toMatchObject({
        code: '42P01',
      });
      expect((await fair.query('select $1::int as n', [2])).rows).toEqual([{ n: 2 }]);
    });

    it('answers statements asked for together each with its own rows, a new text prepared once', async () => {
      const text = 'select $1::int * 2 as n';
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) => fair.query<{ n: number }>(text, [i])),
      );
      expect(answers.map((a) => a.rows[0]?.n)).toEqual(Array.from({ length: 200 }, (_, i) => i * 2));
      const prepared = await fair.query<{ n: number }>(
        'select count(*)::int as n from pg_prepared_statements where statement = $1',
        [text],
      );
      expect(prepared.rows).toEqual([{ n: 1 }]);
      expect(await keptInDatabase()).toBe(fair.preparedCount);
    });

    it('gives each caller of a text that fails to prepare an error of its own, with its own parameters', async () => {
      const text = 'select $1::int from nowhere_at_all';
      const [first, second] = await Promise.all(
        [1, 2].map((n) =>
          fair.query(text, [n]).then(
            () => undefined,
            (err: unknown) => err,
          ),
        ),
      );
      expect(first).not.toBe(second);
      expect(first).toMatchObject({ code: '42P01', query: text, params: [1] });
      expect(second).toMatchObject({ code: '42P01', query: text, params: [2] });
      expect((second as Error).message).toMatch(/nowhere_at_all/);
    });

    it('runs a statement asked for during a transaction after it, never inside it', async () => {
      await fair.exec('create table isolated (id int)');
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const rolledBack = fair.transaction(async (tx) => {
        await tx.query('insert into isolated values ($1)', [1]);
        await held;
        throw new Error('rolled back');
      });
      await new Promise((r) => setTimeout(r, 20));
      const counted = fair.query<{ n: number }>('select count(*)::int as n from isolated');
      release();
      await expect(rolledBack).rejects.toThrow('rolled back');
      expect((await counted).rows).toEqual([{ n: 0 }]);
    });

    it('runs statements in the order asked for, one that must be prepared first too', async () => {
      await fair.exec('create table ordered (id int)');
      const count = 'select count(*)::int as n from ordered';
      await fair.query(count);
      const written = fair.query('insert into ordered values ($1)', [1]);
      const counted = fair.query<{ n: number }>(count);
      await written;
      expect((await counted).rows).toEqual([{ n: 1 }]);
    });

    it("ends a transaction's statements the callback did not wait for before its ROLLBACK", async () => {
      await fair.exec('create table unwaited (id int)');
      await expect(
        fair.transaction(async (tx) => {
          void tx.query('insert into unwaited values ($1)', [1]);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect((await fair.query<{ n: number }>('select count(*)::int as n from unwaited')).rows).toEqual([
        { n: 0 },
      ]);
    });

    it('writes outside a transaction are kept, and a transaction sees them', async () => {
      await fair.exec('create table kept (id int primary key, v text)');
      await fair.query('insert into kept values ($1, $2)', [1, 'one']);
      const affected = await fair.query('update kept set v = $2 where id = $1', [1, 'uno']);
      expect(affected.affectedRows).toBe(1);
      const seen = await fair.transaction(
        async (tx) => (await tx.query('select v from kept where id = $1', [1])).rows,
      );
      expect(seen).toEqual([{ v: 'uno' }]);
    });
  });

  it('a query asked for before the database is up waits for it; one after close is refused', async () => {
    const early = new ServerPGlite();
    expect((await early.query<{ n: number }>('select $1::int as n', [3])).rows).toEqual([{ n: 3 }]);
    await early.close();
    await expect(early.query('select 1')).rejects.toThrow(/closed/i);
  });

  it("fails what is under way and what comes later, without ending the process, when the database's thread ends", async () => {
    const db = new ServerPGlite();
    await db.waitReady;
    const underWay = db.query('select $1::int as n', [1]);
    await db.thread?.terminate();
    await expect(underWay).rejects.toThrow(/thread ended/);
    await expect(db.query('select 1')).rejects.toThrow(/thread ended/);
    await expect(db.transaction(async (tx) => tx.query('select 1'))).rejects.toThrow(/thread ended/);
    await db.close();
    await expect(db.query('select 1')).rejects.toThrow(/closed/);
  });

  it('runs a statement marked GENERIC_PLAN with its generic plan, failing or not, and the next ones as PostgreSQL chooses', async () => {
    const db = new ServerPGlite();
    await db.exec('create table planned (id int primary key, v text)');
    const marked = `${GENERIC_PLAN}select v from planned where id = $1`;
    const plain = 'select v from planned where id >= $1';
    const plans = async (text: string) =>
      (
        await db.query<{ generic_plans: number; custom_plans: number }>(
          'select generic_plans::int, custom_plans::int from pg_prepared_statements where statement = $1',
          [text],
        )
      ).rows[0];
    await db.query(marked, [1]);
    await db.query(plain, [1]);
    // PostgreSQL plans its first runs with the values; the marked statement had its generic plan at once.
    expect(await plans(marked)).toEqual({ generic_plans: 1, custom_plans: 0 });
    expect(await plans(plain)).toEqual({ generic_plans: 0, custom_plans: 1 });
    await expect(db.query(`${GENERIC_PLAN}select 1 / $1::int`, [0])).rejects.toMatchObject({ code: '22012' });
    expect((await db.query<{ plan_cache_mode: string }>('show plan_cache_mode')).rows).toEqual([
      { plan_cache_mode: 'auto' },
    ]);
    await db.close();
  });
});
