import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FairPGlite } from '../src/db/fair-pglite.ts';

/**
 * A loop of PGlite queries must let the event loop turn: PGlite answers on this thread through
 * promises only, and a server whose outbox climbed an alarm storm's ladders read no request for
 * seconds (see `FairPGlite`).
 */
describe('PGlite and the event loop', () => {
  const plain = new PGlite();
  const fair = new FairPGlite();
  beforeAll(async () => {
    await Promise.all([plain.waitReady, fair.waitReady]);
  });
  afterAll(async () => {
    await plain.close();
    await fair.close();
  });

  /** How many of `count` back-to-back statements ran before a timer set at the start fired. */
  async function doneWhenTimerFired(db: PGlite, count: number, statement: (db: PGlite) => Promise<unknown>) {
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

  const select = (db: PGlite) => db.query('select 1');
  const transaction = (db: PGlite) =>
    db.transaction(async (tx) => {
      await tx.query('select 1');
      await tx.query('select 2');
    });

  it('plain PGlite runs a loop of queries without a turn of the event loop (why FairPGlite exists)', async () => {
    expect(await doneWhenTimerFired(plain, 300, select)).toBe(300);
  });

  it('FairPGlite lets a timer fire during a loop of queries, transactions and scripts', async () => {
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
});
