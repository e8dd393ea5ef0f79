import { setImmediate as nextTurn } from 'node:timers/promises';
import { PGlite, type Transaction } from '@electric-sql/pglite';

/**
 * PGlite that lets the event loop turn before each statement or transaction it is asked for.
 *
 * PGlite runs its queries synchronously on this thread and resolves them with promises only, so a
 * loop of queries (the notification outbox climbing 4,000 fallback rungs of an alarm storm, 80
 * transactions back to back) never gave the event loop a turn: no request was read, no MQTT
 * message acknowledged, no alert sent to a screen until it ended (8.7 s for a one-query profile
 * read). Waiting for the next turn before queueing on PGlite's lock lets the requests that came in
 * meanwhile queue first, in arrival order. Statements inside a transaction run without a turn: the
 * lock is held, and nothing else could use it.
 */
export class FairPGlite extends PGlite {
  override async query<T>(...args: Parameters<PGlite['query']>) {
    await nextTurn();
    return super.query<T>(...args);
  }

  override async exec(...args: Parameters<PGlite['exec']>) {
    await nextTurn();
    return super.exec(...args);
  }

  override async transaction<T>(callback: (tx: Transaction) => Promise<T>) {
    await nextTurn();
    return super.transaction<T>(callback);
  }
}
