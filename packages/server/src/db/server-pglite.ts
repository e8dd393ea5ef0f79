import {
  type PGlite,
  parse,
  protocol,
  type QueryOptions,
  type Results,
  type Transaction,
  TransactionAbortedError,
  types,
} from '@electric-sql/pglite';
import { query as templateQuery } from '@electric-sql/pglite/template';
import { Turns } from '../lib/turns.ts';
import {
  DUMP_LIMIT_MS,
  localStatementTimeout,
  SCRIPT_LIMIT_MS,
  STATEMENT_LIMIT_MS,
} from './pglite-limits.ts';
import { joined } from './pglite-protocol.ts';
import { type PGliteThread, RestartingThread } from './pglite-thread.ts';
import { eachMessage, type Field, resultsOf } from './wire-answer.ts';

/** Statements kept prepared (least recently used dropped first): every query shape the server has, several times over. */
export const STATEMENTS_KEPT = 512;

/**
 * Begins a statement PGlite runs with a generic plan (`plan_cache_mode = force_generic_plan` for it
 * alone): for a statement over the partitioned readings whose custom plans PostgreSQL would go on
 * choosing. Planning sizes every table and index it may read, and PGlite's file system answers each
 * size with a system call (`fstat` for `lseek(SEEK_END)`): 70 of them for each 24 h history's
 * summary, planned anew on every call, against 5 run once planned (partitions a range leaves out are
 * pruned when it starts). A comment to PostgreSQL; the server's pool sends such a statement to
 * connections set so (`PlanRoutingPool`, plan-routing-pool.ts).
 */
export const GENERIC_PLAN = '/* generic plan */ ';
const SET_GENERIC = protocol.serialize.query('set plan_cache_mode = force_generic_plan');
const SET_AUTO = protocol.serialize.query('set plan_cache_mode = auto');

type BackendMessage = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];

interface Statement {
  name: string;
  /** The type of each parameter, as the database inferred it from the text. */
  paramTypes: number[];
  /** The columns of its rows (none for a statement that returns none). */
  fields: Field[];
}

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

/** The messages of the second of several answers (each ends with a ReadyForQuery). */
const secondAnswer = (messages: BackendMessage[]) => {
  const first = messages.findIndex((m) => m.name === 'readyForQuery');
  const second = messages.findIndex((m, i) => i > first && m.name === 'readyForQuery');
  return messages.slice(first + 1, second + 1);
};

/** The array types' element and array oids, as PGlite reads them to parse and write arrays. */
const ARRAY_TYPES = `
  select b.oid, b.typarray from pg_catalog.pg_type a
  left join pg_catalog.pg_type b on b.oid = a.typelem
  where a.typcategory = 'A' group by b.oid, b.typarray order by b.oid`;

/**
 * An error of the caller's own, to write its statement on: one error can fail many callers (every
 * statement under way when the thread ended), and each must keep its own statement and parameters.
 */
const ownError = (err: unknown): object =>
  typeof err === 'object' && err !== null ? Object.create(err) : new Error(String(err));

/** A transaction's thread and time limit (see `ServerPGlite.#pinned`). */
interface Pinned {
  thread: PGliteThread;
  limitMs?: number;
}

export interface ServerPGliteOptions {
  /** The data directory (none: in memory). */
  dataDir?: string;
  /** A dump (`dumpDataDir`) to start from instead of an empty cluster. */
  loadDataDir?: Blob;
  /** Told when the database's thread ends other than by `close` (a crash), and whether it is started again. */
  onThreadEnded?: (err: Error, restarting: boolean) => void;
  /** The longest a statement may run (`STATEMENT_LIMIT_MS` unless given; 0: no limit). */
  statementLimitMs?: number;
  /** The longest a script or a prepare may run (`SCRIPT_LIMIT_MS` unless given). */
  scriptLimitMs?: number;
}

/** A kept statement: its name at once, its description once the database has given it. */
interface Kept {
  name: string;
  ready: Promise<Statement>;
}

/**
 * PGlite as the server uses it: on a thread of its own, and with its statements kept prepared.
 * It answers as PGlite answers (`query`, `exec`, `transaction`, `dumpDataDir`, `close`), for the
 * drizzle driver and the server's own SQL.
 *
 * **On its own thread.** PGlite runs PostgreSQL compiled to WebAssembly, synchronously, on the thread
 * that calls it. On the server's thread every statement held up every request, socket and MQTT
 * message meanwhile (a loop of queries never let the event loop turn at all), and the server used
 * one core where PostgreSQL's server uses another. Here PGlite runs in `pglite-worker.ts`
 * (`PGliteThread`), which only runs PostgreSQL wire protocol messages and gives back the answer's
 * bytes. Everything else stays on this thread: the kept statements, writing the parameters, and
 * parsing the answers with the caller's parsers (functions cannot cross threads).
 *
 * **Asked for without waiting.** Statements outside a transaction do not wait for each other: each
 * is one message (two the first time: prepare, then run), and the thread runs them in the order
 * sent, so it has the next one while this thread reads the last answer. A transaction, a script or
 * a dump takes a turn alone (`Turns`): it starts once the statements asked for before it have
 * answered, and those asked for after wait for it. Each wait is a turn of the event loop.
 *
 * **Statements prepared once.** `query` of PGlite parses, plans and describes the text each time,
 * in six calls into the database (254 µs for a lookup by primary key, here). Each text is prepared
 * once under a name (parsed, its parameter types and rows described), then run with one message:
 * bind, execute, sync (84 µs). As node-postgres's named statements do on PostgreSQL: the database
 * plans each anew, or keeps a generic plan once that is no dearer.
 *
 * **Started again after a crash** (`RestartingThread`), on a data directory on disk: the kept
 * statements are then prepared anew.
 */
export class ServerPGlite {
  /** Parsers and writers of each type, the array types' added once the database is up (as PGlite's). */
  readonly parsers: Record<number, types.Parser> = { ...types.parsers };
  readonly serializers: Record<number, types.Serializer> = { ...types.serializers };
  readonly waitReady: Promise<void>;
  readonly #thread: RestartingThread;
  /** The longest a statement may run (0: no limit, nor for anything else: migrations lift it). */
  statementLimitMs: number;
  readonly #scriptLimitMs: number;
  readonly #turns = new Turns();
  #closed = false;
  #parser = new protocol.Parser();
  /**
   * The transaction under way: the thread it began on, for all its statements (one that crashed
   * took the transaction with it: nothing after may run on its successor outside any transaction),
   * and its own time limit (`set local statement_timeout`).
   */
  #pinned: Pinned | undefined;
  readonly #statements = new Map<string, Kept>();
  #named = 0;
  /** Settles once the last statement asked for has been sent to the thread. */
  #sending: Promise<unknown> = Promise.resolve();

  constructor(options: ServerPGliteOptions = {}) {
    this.statementLimitMs = options.statementLimitMs ?? STATEMENT_LIMIT_MS;
    this.#scriptLimitMs = options.scriptLimitMs ?? SCRIPT_LIMIT_MS;
    this.#thread = new RestartingThread({
      onEnded: options.onThreadEnded,
      onRestarted: () => this.#statements.clear(),
    });
    this.waitReady = this.#start(options);
    // Whoever queries learns of a failed start; an unawaited one must not end the process.
    this.waitReady.catch(() => {});
  }

  async #start(options: ServerPGliteOptions) {
    const load = options.loadDataDir ? await options.loadDataDir.arrayBuffer() : undefined;
    await this.#thread.start({ dataDir: options.dataDir, load });
    const [arrays] = await this.#script(ARRAY_TYPES, undefined, false);
    for (const { oid, typarray } of (arrays?.rows ?? []) as { oid: number; typarray: number }[]) {
      this.serializers[typarray] = (x) => types.arraySerializer(x, this.serializers[oid], typarray);
      this.parsers[typarray] = (x) => types.arrayParser(x, this.parsers[oid] as types.Parser, typarray);
    }
  }

  /**
   * PostgreSQL's messages for these, failing with the first error among them (as PGlite's
   * `execProtocolStream`: the messages after an error are dropped). Each answer is whole: the
   * parser holds nothing over from one to the next.
   */
  async #run(bytes: Uint8Array, syncToFs: boolean, onNotice?: QueryOptions['onNotice'], limited = false) {
    const pinned = this.#pinned;
    const thread = pinned?.thread ?? (await this.#thread.live());
    const answer = await thread.ask(
      { op: 'protocol', bytes, syncToFs },
      this.#limit(pinned?.limitMs ?? (limited ? this.statementLimitMs : this.#scriptLimitMs)),
    );
    const messages: BackendMessage[] = [];
    let failed: BackendMessage | undefined;
    let whole = false;
    let readable = true;
    try {
      eachMessage(answer, this.#parser, (message) => {
        whole = message.name === 'readyForQuery';
        if (failed) return;
        if (message.name === 'error') failed = message;
        else if (message.name === 'notice')
          onNotice?.(message as Parameters<NonNullable<typeof onNotice>>[0]);
        messages.push(message);
      });
    } catch {
      readable = false;
    }
    const broken = !readable
      ? 'an answer that could not be read'
      : !whole
        ? 'an answer cut short (no ReadyForQuery)'
        : (failed as { severity?: string } | undefined)?.severity === 'PANIC'
          ? `a PANIC (${(failed as { message?: string }).message})`
          : undefined;
    if (broken) {
      // Its later answers could not be trusted (a write acknowledged and not made): ended, and on
      // disk started again. The parser may hold part of a message: a new one.
      const err = new Error(`the embedded database gave ${broken}: its thread was stopped`);
      this.#parser = new protocol.Parser();
      thread.end(err);
      throw err;
    }
    if (failed) throw failed;
    return messages;
  }

  /** `ms` on a database on disk while a limit is on (0: none), else none. */
  #limit(ms: number): number | undefined {
    return this.statementLimitMs > 0 && ms > 0 ? this.#thread.limit(ms) : undefined;
  }

  async #checkReady() {
    if (this.#closed) throw new Error('PGlite is closed');
    await this.waitReady;
  }

  async query<T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    await this.#checkReady();
    return this.#turns.shared(() => this.#statement<T>(text, params, options, true));
  }

  /** Statements run with the simple query protocol (several, no parameters), in a turn alone. */
  async exec(text: string, options?: QueryOptions): Promise<Results[]> {
    await this.#checkReady();
    return this.#turns.alone(() => this.#script(text, options, true));
  }

  /**
   * As PGlite's: BEGIN, the callback's statements, COMMIT (ROLLBACK if it throws). A COMMIT that
   * rolled back (the transaction had failed) throws `TransactionAbortedError`.
   */
  async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    await this.#checkReady();
    return this.#turns.alone(async () => {
      const pinned: Pinned = { thread: await this.#thread.live() };
      this.#pinned = pinned;
      try {
        return await this.#transaction(pinned, callback);
      } finally {
        this.#pinned = undefined;
      }
    });
  }

  async #transaction<T>(pinned: Pinned, callback: (tx: Transaction) => Promise<T>): Promise<T> {
    await this.#script('BEGIN', undefined, false);
    let closed = false;
    const open = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    // Statements the callback asked for and did not wait for end before COMMIT or ROLLBACK.
    const underWay = new Set<Promise<unknown>>();
    const track = <R>(answer: Promise<R>) => {
      underWay.add(answer);
      answer.then(
        () => underWay.delete(answer),
        () => underWay.delete(answer),
      );
      return answer;
    };
    const settled = () => Promise.allSettled([...underWay]);
    // PGlite ignores `set local statement_timeout`: the limit is kept here (backups raise it).
    const limitFrom = (text: string) => {
      const limitMs = localStatementTimeout(text);
      if (limitMs !== undefined) pinned.limitMs = limitMs;
    };
    const tx: Transaction = {
      query: async <R>(text: string, params: unknown[] = [], options?: QueryOptions) => {
        open();
        limitFrom(text);
        return track(this.#statement<R>(text, params, options, false));
      },
      sql: async <R>(strings: TemplateStringsArray, ...values: unknown[]) => {
        open();
        const { query, params } = templateQuery(strings, ...values);
        return track(this.#statement<R>(query, params, undefined, false));
      },
      exec: async (text: string, options?: QueryOptions) => {
        open();
        limitFrom(text);
        return track(this.#script(text, options, false));
      },
      rollback: async () => {
        open();
        closed = true;
        await settled();
        if (!pinned.thread.ended) await this.#script('ROLLBACK', undefined, false);
      },
      listen: async () => {
        throw new Error('LISTEN is not supported here');
      },
      get closed() {
        return closed;
      },
    };
    try {
      const result = await callback(tx);
      if (!closed) {
        closed = true;
        await settled();
        const [committed] = await this.#script('COMMIT', undefined, true);
        if (committed?.command === 'ROLLBACK')
          throw Object.assign(new TransactionAbortedError(), { query: 'COMMIT' });
      }
      return result;
    } catch (err) {
      if (!closed) {
        closed = true;
        await settled();
        // A transaction whose thread ended ended with it: there is nothing to roll back.
        if (!pinned.thread.ended) await this.#script('ROLLBACK', undefined, true);
      }
      throw err;
    }
  }

  /** The data directory as a tar file, taken between transactions. */
  async dumpDataDir(compression?: 'none' | 'gzip' | 'auto'): Promise<Blob> {
    await this.#checkReady();
    const tar = await this.#turns.alone(async () =>
      (await this.#thread.live()).ask({ op: 'dump', compression }, this.#limit(DUMP_LIMIT_MS)),
    );
    return new Blob([tar as Uint8Array<ArrayBuffer>]);
  }

  /** Closes the database once what was asked for before has ended; what is asked for later is refused. */
  async close() {
    await this.waitReady.catch(() => {});
    await this.#turns.alone(async () => {
      if (this.#closed) return;
      this.#closed = true;
      await this.#thread.close();
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** The database's thread (for tests). */
  get thread() {
    return this.#thread.worker;
  }

  /** How many statements are kept prepared (for tests). */
  get preparedCount(): number {
    return this.#statements.size;
  }

  /** One statement, prepared once (outside a transaction, a stale one is prepared again and run). */
  async #statement<T>(text: string, params: unknown[], options: QueryOptions | undefined, outside: boolean) {
    if (options?.blob || options?.paramTypes) throw new Error('ServerPGlite takes no blob and no paramTypes');
    try {
      // Sent in the order asked for: one that must be prepared first holds back those asked after it.
      const { statement, answer } = await this.#inOrder(async () => {
        const statement = await this.#prepared(text);
        return { statement, answer: this.#bound<T>(statement, text, params, outside, options) };
      });
      return await answer.catch(async (err: unknown) => {
        if (!isStale(err)) throw err;
        await this.#forget(text, statement);
        // A transaction's failed statement failed the transaction: the next one prepares it anew.
        if (!outside) throw err;
        return this.#bound<T>(await this.#prepared(text), text, params, outside, options);
      });
    } catch (err) {
      // As PGlite's own errors: the statement and its parameters on the error.
      throw Object.assign(ownError(err), { query: text, params, queryOptions: options });
    }
  }

  /** Runs `send` once what was asked for before it has been sent (`send` sends when it resolves). */
  #inOrder<S>(send: () => Promise<S>): Promise<S> {
    const sent = this.#sending.then(send);
    this.#sending = sent.catch(() => {});
    return sent;
  }

  /** Statements in one simple query message. */
  async #script(text: string, options: QueryOptions | undefined, syncToFs: boolean): Promise<Results[]> {
    const messages = await this.#run(
      joined([protocol.serialize.query(text), protocol.serialize.sync()]),
      syncToFs,
      options?.onNotice,
    ).catch((err: unknown) => {
      throw Object.assign(ownError(err), { query: text, params: undefined, queryOptions: options });
    });
    return parse.parseResults(messages, this.parsers, options);
  }

  /**
   * Binds and runs a kept statement in one message. A statement marked GENERIC_PLAN is wrapped in
   * `set plan_cache_mode` and its reset, in the same message: the reset runs even when the statement
   * fails (in a failed transaction the rollback resets it).
   */
  async #bound<T>(
    statement: Statement,
    text: string,
    params: unknown[],
    syncToFs: boolean,
    options?: QueryOptions,
  ): Promise<Results<T>> {
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.paramTypes[i] ?? 0;
      const serialize = options?.serializers?.[type] ?? this.serializers[type];
      return serialize ? serialize(value) : String(value);
    });
    // A statement described with no columns (a write without RETURNING; a FETCH whose cursor was
    // not there yet) has its portal described too: the columns of these rows are the portal's.
    const describePortal = statement.fields.length === 0;
    const run = [
      protocol.serialize.bind({ statement: statement.name, values }),
      ...(describePortal ? [protocol.serialize.describe({ type: 'P' })] : []),
      protocol.serialize.execute({}),
      protocol.serialize.sync(),
    ];
    const generic = text.startsWith(GENERIC_PLAN);
    const messages = await this.#run(
      joined(generic ? [SET_GENERIC, ...run, SET_AUTO] : run),
      syncToFs,
      options?.onNotice,
      true,
    );
    const own = generic ? secondAnswer(messages) : messages;
    const described = describePortal ? fieldsOf(own) : statement.fields;
    return resultsOf<T>(described, own, this.parsers, options);
  }

  /**
   * Closes a kept statement that failed as stale, and forgets it unless it was prepared again
   * meanwhile (a Close of a name the database no longer has is no error).
   */
  async #forget(text: string, statement: Statement) {
    if (this.#statements.get(text)?.name === statement.name) this.#statements.delete(text);
    await this.#run(
      joined([protocol.serialize.close({ type: 'S', name: statement.name }), protocol.serialize.sync()]),
      false,
    );
  }

  /** The kept statement of this text, prepared (and the least recently used closed) if there is none. */
  #prepared(text: string): Promise<Statement> {
    const kept = this.#statements.get(text);
    if (kept) {
      this.#statements.delete(text);
      this.#statements.set(text, kept);
      return kept.ready;
    }
    const parts: Uint8Array[] = [];
    if (this.#statements.size >= STATEMENTS_KEPT) {
      const [oldest, dropped] = this.#statements.entries().next().value as [string, Kept];
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
    const ready = this.#run(joined(parts), false).then((messages) => {
      const params = messages.find((m) => m.name === 'parameterDescription') as
        | { dataTypeIDs: number[] }
        | undefined;
      return { name, paramTypes: params?.dataTypeIDs ?? [], fields: fieldsOf(messages) };
    });
    const entry = { name, ready };
    this.#statements.set(text, entry);
    // A text the database refused is not kept.
    ready.catch(() => {
      if (this.#statements.get(text) === entry) this.#statements.delete(text);
    });
    return ready;
  }
}
