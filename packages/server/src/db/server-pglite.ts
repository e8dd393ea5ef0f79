import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  PGlite,
  protocol,
  type QueryOptions,
  type Results,
  type Transaction,
  types,
} from '@electric-sql/pglite';

/** Statements kept prepared (least recently used dropped first): every query shape the server has, several times over. */
export const STATEMENTS_KEPT = 512;

/**
 * Begins a statement PGlite runs with a generic plan (`plan_cache_mode = force_generic_plan` for it
 * alone): for a statement over the partitioned readings whose custom plans PostgreSQL would go on
 * choosing. Planning sizes every table and index it may read, and PGlite's file system answers each
 * size with a system call (`fstat` for `lseek(SEEK_END)`): 70 of them for each 24 h history's
 * summary, planned anew on every call, against 5 run once planned (partitions a range leaves out are
 * pruned when it starts). A comment: PostgreSQL itself (node-postgres) ignores it.
 */
export const GENERIC_PLAN = '/* generic plan */ ';

type BackendMessage = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];

interface Field {
  name: string;
  dataTypeID: number;
}

interface Statement {
  name: string;
  /** The type of each parameter, as the database inferred it from the text. */
  paramTypes: number[];
  /** The columns of its rows (none for a statement that returns none). */
  fields: Field[];
}

/** The messages of a result as PGlite's protocol parser gives them. */
type DataRow = { name: 'dataRow'; fields: (string | null)[] };
type CommandComplete = { name: 'commandComplete'; text: string };
/** Commands whose tag's count is of rows changed (PGlite's `affectedRows`). */
const CHANGES = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

/** A kept statement gone (DISCARD ALL, DEALLOCATE), or whose tables changed shape: prepared again, once. */
const isStale = (err: unknown) => {
  const { code, message } = err as { code?: string; message?: string };
  return (
    code === '26000' || (code === '0A000' && /cached plan must not change result type/.test(message ?? ''))
  );
};

/** The columns a RowDescription among these messages gives (none without one). */
const fieldsOf = (messages: BackendMessage[]): Field[] => {
  const described = messages.find((m) => m.name === 'rowDescription') as { fields: Field[] } | undefined;
  return (described?.fields ?? []).map((f) => ({ name: f.name, dataTypeID: f.dataTypeID }));
};

const joined = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/**
 * PGlite as the server uses it: fair to the event loop, and with its statements kept prepared.
 *
 * **A turn of the event loop before each statement or transaction.** PGlite runs its queries
 * synchronously on this thread and resolves them with promises only, so a loop of queries (the
 * notification outbox climbing 4,000 fallback rungs of an alarm storm, 80 transactions back to
 * back) never gave the event loop a turn: no request was read, no MQTT message acknowledged, no
 * alert sent to a screen until it ended (5.7 to 8.7 s for a one-query profile read). Waiting for the next
 * turn before queueing on PGlite's lock lets the requests that came in meanwhile queue first, in
 * arrival order. Statements inside a transaction run without a turn: the lock is held, and nothing
 * else could use it.
 *
 * **Statements prepared once.** `query` of PGlite parses, plans and describes the text each time,
 * in six calls into the database (254 µs for a lookup by primary key, here). Outside a transaction
 * each text is prepared once under a name (parsed, its parameter types and rows described), then
 * run with one call: bind, execute, sync (84 µs). As node-postgres's named statements do on
 * PostgreSQL: the database plans each anew, or keeps a generic plan once that is no dearer.
 */
export class ServerPGlite extends PGlite {
  readonly #statements = new Map<string, Statement>();
  #named = 0;

  override async query<T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    await nextTurn();
    if (options?.blob || options?.paramTypes) return super.query<T>(text, params, options);
    // As PGlite's own query: wait for the database to be up, refuse once it is closed.
    await this._checkReady();
    const generic = text.startsWith(GENERIC_PLAN);
    return this._runExclusiveTransaction(() =>
      this._runExclusiveQuery(async () => {
        if (generic) await this.#planCacheMode('force_generic_plan');
        try {
          return await this.#runPrepared<T>(text, params, options).catch(async (err: unknown) => {
            if (!isStale(err)) throw err;
            await this.#forget(text);
            return this.#runPrepared<T>(text, params, options);
          });
        } catch (err) {
          // As PGlite's own errors: the statement and its parameters on the error.
          throw Object.assign(err as object, { query: text, params, queryOptions: options });
        } finally {
          if (generic) await this.#planCacheMode('auto');
        }
      }),
    );
  }

  override async exec(...args: Parameters<PGlite['exec']>) {
    await nextTurn();
    return super.exec(...args);
  }

  override async transaction<T>(callback: (tx: Transaction) => Promise<T>) {
    await nextTurn();
    return super.transaction<T>(callback);
  }

  /** How many statements are kept prepared (for tests). */
  get preparedCount(): number {
    return this.#statements.size;
  }

  /** Sets the session's `plan_cache_mode` (within the query lock: no other statement runs meanwhile). */
  async #planCacheMode(mode: 'force_generic_plan' | 'auto') {
    await this.execProtocolStream(protocol.serialize.query(`set plan_cache_mode = ${mode}`));
  }

  async #runPrepared<T>(text: string, params: unknown[], options?: QueryOptions): Promise<Results<T>> {
    const statement = await this.#prepared(text);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.paramTypes[i] ?? 0;
      const serialize = options?.serializers?.[type] ?? this.serializers[type];
      return serialize ? serialize(value) : String(value);
    });
    // A statement described with no columns (a write without RETURNING; a FETCH whose cursor was
    // not there yet) has its portal described too: the columns of these rows are the portal's.
    const describePortal = statement.fields.length === 0;
    const messages = await this.execProtocolStream(
      joined([
        protocol.serialize.bind({ statement: statement.name, values }),
        ...(describePortal ? [protocol.serialize.describe({ type: 'P' })] : []),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ]),
      { onNotice: options?.onNotice },
    );
    const described = describePortal ? fieldsOf(messages) : statement.fields;
    return this.#results<T>(described, messages, options);
  }

  /** Closes a kept statement and forgets it (a Close of a name the database no longer has is no error). */
  async #forget(text: string) {
    const kept = this.#statements.get(text);
    if (!kept) return;
    this.#statements.delete(text);
    await this.execProtocolStream(
      joined([protocol.serialize.close({ type: 'S', name: kept.name }), protocol.serialize.sync()]),
      { syncToFs: false },
    );
  }

  /**
   * The rows and count of one statement's messages, in PGlite's shape. PGlite's own `parseResults`
   * copied every parser it knows (hundreds, with the array types) into a new object on each query
   * that brings its own (the drizzle driver's always do): a third of the server's time on a
   * profile read. Here each column's parser is looked up once a query.
   */
  #results<T>(fields: Field[], messages: BackendMessage[], options?: QueryOptions): Results<T> {
    const parsers = fields.map(
      (f) => options?.parsers?.[f.dataTypeID] ?? this.parsers[f.dataTypeID] ?? types.parsers[f.dataTypeID],
    );
    const value = (raw: string | null, i: number) => {
      if (raw === null) return null;
      const parser = parsers[i];
      return parser ? parser(raw, fields[i]!.dataTypeID) : raw;
    };
    const asArrays = options?.rowMode === 'array';
    const rows: unknown[] = [];
    let command: string | undefined;
    let affectedRows = 0;
    let rowCount: number | undefined;
    for (const message of messages) {
      if (message.name === 'dataRow') {
        const raw = (message as unknown as DataRow).fields;
        if (asArrays) rows.push(raw.map(value));
        else rows.push(Object.fromEntries(raw.map((r, i) => [fields[i]!.name, value(r, i)])));
      } else if (message.name === 'commandComplete') {
        const tag = (message as unknown as CommandComplete).text.split(' ');
        command = tag[0];
        const count = Number.parseInt(tag.at(-1) ?? '', 10);
        if (command && CHANGES.has(command)) affectedRows += count;
        if (!Number.isNaN(count)) rowCount = count;
      }
    }
    return {
      rows: rows as T[],
      fields: fields.map((f) => ({ ...f })),
      affectedRows,
      ...(command === undefined ? {} : { command }),
      ...(rowCount === undefined ? {} : { rowCount }),
    } as Results<T>;
  }

  async #prepared(text: string): Promise<Statement> {
    const kept = this.#statements.get(text);
    if (kept) {
      this.#statements.delete(text);
      this.#statements.set(text, kept);
      return kept;
    }
    const parts: Uint8Array[] = [];
    if (this.#statements.size >= STATEMENTS_KEPT) {
      const [oldest, dropped] = this.#statements.entries().next().value as [string, Statement];
      this.#statements.delete(oldest);
      parts.push(protocol.serialize.close({ type: 'S', name: dropped.name }));
    }
    this.#named += 1;
    const name = `vw_${this.#named}`;
    parts.push(
      protocol.serialize.parse({ name, text, types: [] }),
      protocol.serialize.describe({ type: 'S', name }),
      protocol.serialize.sync(),
    );
    const messages = await this.execProtocolStream(joined(parts), { syncToFs: false });
    const params = messages.find((m) => m.name === 'parameterDescription') as
      | { dataTypeIDs: number[] }
      | undefined;
    const statement = { name, paramTypes: params?.dataTypeIDs ?? [], fields: fieldsOf(messages) };
    this.#statements.set(text, statement);
    return statement;
  }
}
