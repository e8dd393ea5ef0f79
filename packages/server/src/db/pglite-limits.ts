/** How long the embedded database's thread may be held by one ask (`ServerPGlite`). */

/**
 * The longest a statement runs on a database on disk, as PostgreSQL's `statement_timeout` on a
 * server (`db/index.ts`). PGlite has none: past it the thread is stopped and started again.
 */
export const STATEMENT_LIMIT_MS = 15_000;
/**
 * The longest a script (BEGIN, COMMIT, maintenance) or a prepare may run, a dump `DUMP_LIMIT_MS`:
 * generous, never for ever (PGlite hangs for good on a wire message it does not know). None while
 * `migrate` lifts the limit, nor in memory (the tests': a stopped thread would lose the database).
 */
export const SCRIPT_LIMIT_MS = 10 * 60_000;
export const DUMP_LIMIT_MS = 60 * 60_000;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, min: 60_000, h: 3_600_000 };

/** The milliseconds of a `set local statement_timeout = '…'` (0: none), or undefined for any other text. */
export const localStatementTimeout = (text: string): number | undefined => {
  const set =
    /^\s*set\s+local\s+statement_timeout\s*(?:=|to)\s*'?\s*(\d+)\s*(ms|s|min|h)?\s*'?\s*;?\s*$/i.exec(text);
  return set ? Number(set[1]) * (UNIT_MS[(set[2] ?? 'ms').toLowerCase()] ?? 1) : undefined;
};
