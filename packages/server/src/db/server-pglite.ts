import { Worker } from 'node:worker_threads';
import {
  Mutex,
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
import type { WorkerAnswer, WorkerAsk, WorkerStart } from './pglite-protocol.ts';

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
const SET_GENERIC = protocol.serialize.query('set plan_cache_mode = force_generic_plan');
const SET_AUTO = protocol.serialize.query('set plan_cache_mode = auto');

type BackendMessage = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

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

export interface ServerPGliteOptions {
  /** The data directory (none: in memory). */
  dataDir?: string;
  /** A dump (`dumpDataDir`) to start from instead of an empty cluster. */
  loadDataDir?: Blob;
}

interface Waiting {
  resolve(bytes: Uint8Array): void;
  reject(err: Error): void;
}

/**
 * PGlite as the server uses it: on a thread of its own, and with its statements kept prepared.
 * It answers as PGlite answers (`query`, `exec`, `transaction`, `dumpDataDir`, `close`), for the
 * drizzle driver and the server's own SQL.
 *
 * **On its own thread.** PGlite runs PostgreSQL compiled to WebAssembly, synchronously, on the thread
 * that calls it. On the server's thread every statement held up every request, socket and MQTT
 * message meanwhile (a loop of queries never let the event loop turn at all), and the server used
 * one core where PostgreSQL's server uses another. Here PGlite runs in `pglite-worker.ts`, which
 * does only one thing: run PostgreSQL wire protocol messages and give back the answer's bytes (moved,
 * not copied). Everything else stays on this thread: the locks, the kept statements, writing the
 * parameters and parsing the answer with the caller's parsers (functions cannot cross threads).
 * Every statement is one message there and back; each wait is a turn of the event loop.
 *
 * **Statements prepared once.** `query` of PGlite parses, plans and describes the text each time,
 * in six calls into the database (254 µs for a lookup by primary key, here). Each text is prepared
 * once under a name (parsed, its parameter types and rows described), then run with one message:
 * bind, execute, sync (84 µs). As node-postgres's named statements do on PostgreSQL: the database
 * plans each anew, or keeps a generic plan once that is no dearer.
 */
export class ServerPGlite {
  /** Parsers and writers of each type, the array types' added once the database is up (as PGlite's). */
  readonly parsers: Record<number, types.Parser> = { ...types.parsers };
  readonly serializers: Record<number, types.Serializer> = { ...types.serializers };
  readonly waitReady: Promise<void>;
  #worker: Worker | undefined;
  readonly #waiting = new Map<number, Waiting>();
  #asked = 0;
  /** Why nothing more can be asked of the database's thread (closed, or it stopped). */
  #stopped: Error | undefined;
  #closed = false;
  /** Held by a transaction, or by a statement outside one (as PGlite's two locks). */
  readonly #transactions = new Mutex();
  /** Held by one statement's messages (a transaction's statements run one at a time). */
  readonly #queries = new Mutex();
  #parser = new protocol.Parser();
  readonly #statements = new Map<string, Statement>();
  #named = 0;

  constructor(options: ServerPGliteOptions = {}) {
    this.waitReady = this.#start(options);
    // Whoever queries learns of a failed start; an unawaited one must not end the process.
    this.waitReady.catch(() => {});
  }

  async #start(options: ServerPGliteOptions) {
    const load = options.loadDataDir ? await options.loadDataDir.arrayBuffer() : undefined;
    const worker = new Worker(new URL('./pglite-worker.ts', import.meta.url), {
      workerData: { dataDir: options.dataDir, load } satisfies WorkerStart,
      transferList: load ? [load] : [],
      // The database's thread needs no flag of the server's (its V8 flags, the drizzle hook).
      execArgv: [],
    });
    this.#worker = worker;
    worker.on('message', (answer: WorkerAnswer) => {
      const waiting = this.#waiting.get(answer.id);
      if (!waiting) return;
      this.#settled(answer.id);
      if ('failed' in answer) waiting.reject(new Error(answer.failed));
      else waiting.resolve(answer.bytes);
    });
    worker.on('error', (err) => this.#stop(err));
    worker.on('exit', (code) =>
      this.#stop(new Error(`the embedded database's thread ended (exit code ${code})`)),
    );
    await this.#answerTo(0);
    const [arrays] = await this.#script(ARRAY_TYPES, undefined, false);
    for (const { oid, typarray } of (arrays?.rows ?? []) as { oid: number; typarray: number }[]) {
      this.serializers[typarray] = (x) => types.arraySerializer(x, this.serializers[oid], typarray);
      this.parsers[typarray] = (x) => types.arrayParser(x, this.parsers[oid] as types.Parser, typarray);
    }
  }

  /** The answer to ask `id`. The thread keeps the process alive while an answer is awaited, not when idle. */
  #answerTo(id: number): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      if (this.#waiting.size === 1) this.#worker?.ref();
    });
  }

  #settled(id: number) {
    this.#waiting.delete(id);
    if (this.#waiting.size === 0) this.#worker?.unref();
  }

  /** The database's thread is gone: every answer awaited fails, and every later ask. */
  #stop(err: Error) {
    this.#stopped ??= err;
    for (const [id, waiting] of this.#waiting) {
      this.#settled(id);
      waiting.reject(err);
    }
  }

  #ask(ask: DistributiveOmit<WorkerAsk, 'id'>): Promise<Uint8Array> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    this.#asked += 1;
    const answer = this.#answerTo(this.#asked);
    this.#worker?.postMessage({ ...ask, id: this.#asked });
    return answer;
  }

  /**
   * PostgreSQL's messages for these, failing with the first error among them (as PGlite's
   * `execProtocolStream`: the messages after an error are dropped).
   */
  async #run(bytes: Uint8Array, syncToFs: boolean, onNotice?: QueryOptions['onNotice']) {
    const answer = await this.#ask({ op: 'protocol', bytes, syncToFs });
    const messages: BackendMessage[] = [];
    let failed: BackendMessage | undefined;
    this.#parser.parse(answer, (message) => {
      if (failed) return;
      if (message.name === 'error') failed = message;
      else if (message.name === 'notice') onNotice?.(message as Parameters<NonNullable<typeof onNotice>>[0]);
      messages.push(message);
    });
    if (failed) {
      this.#parser = new protocol.Parser();
      throw failed;
    }
    return messages;
  }

  async #checkReady() {
    if (this.#closed) throw new Error('PGlite is closed');
    await this.waitReady;
    if (this.#stopped) throw this.#stopped;
  }

  async query<T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    await this.#checkReady();
    return this.#transactions.runExclusive(() => this.#statement<T>(text, params, options, true));
  }

  /** Statements run with the simple query protocol (several, no parameters). */
  async exec(text: string, options?: QueryOptions): Promise<Results[]> {
    await this.#checkReady();
    return this.#transactions.runExclusive(() => this.#script(text, options, true));
  }

  /**
   * As PGlite's: BEGIN, the callback's statements, COMMIT (ROLLBACK if it throws). A COMMIT that
   * rolled back (the transaction had failed) throws `TransactionAbortedError`.
   */
  async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    await this.#checkReady();
    return this.#transactions.runExclusive(async () => {
      await this.#script('BEGIN', undefined, false);
      let closed = false;
      const open = () => {
        if (closed) throw new Error('Transaction is closed');
      };
      const tx: Transaction = {
        query: async <R>(text: string, params: unknown[] = [], options?: QueryOptions) => {
          open();
          return this.#statement<R>(text, params, options, false);
        },
        sql: async <R>(strings: TemplateStringsArray, ...values: unknown[]) => {
          open();
          const { query, params } = templateQuery(strings, ...values);
          return this.#statement<R>(query, params, undefined, false);
        },
        exec: async (text: string, options?: QueryOptions) => {
          open();
          return this.#script(text, options, false);
        },
        rollback: async () => {
          open();
          await this.#script('ROLLBACK', undefined, false);
          closed = true;
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
          const [committed] = await this.#script('COMMIT', undefined, true);
          if (committed?.command === 'ROLLBACK')
            throw Object.assign(new TransactionAbortedError(), { query: 'COMMIT' });
        }
        return result;
      } catch (err) {
        if (!closed) {
          closed = true;
          await this.#script('ROLLBACK', undefined, true);
        }
        throw err;
      }
    });
  }

  /** The data directory as a tar file (as PGlite's: between statements, not between transactions). */
  async dumpDataDir(compression?: 'none' | 'gzip' | 'auto'): Promise<Blob> {
    await this.#checkReady();
    const tar = await this.#queries.runExclusive(() => this.#ask({ op: 'dump', compression }));
    return new Blob([tar as Uint8Array<ArrayBuffer>]);
  }

  /** Closes the database once the statements and transactions asked for before have ended. */
  async close() {
    await this.waitReady.catch(() => {});
    await this.#transactions.runExclusive(() =>
      this.#queries.runExclusive(async () => {
        if (this.#closed) return;
        this.#closed = true;
        await this.#ask({ op: 'close' }).catch(() => {});
        this.#stopped ??= new Error('PGlite is closed');
        await this.#worker?.terminate();
      }),
    );
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** How many statements are kept prepared (for tests). */
  get preparedCount(): number {
    return this.#statements.size;
  }

  /** One statement, prepared once (outside a transaction, a stale one is prepared again and run). */
  #statement<T>(text: string, params: unknown[], options: QueryOptions | undefined, outside: boolean) {
    if (options?.blob || options?.paramTypes) throw new Error('ServerPGlite takes no blob and no paramTypes');
    return this.#queries.runExclusive(async () => {
      try {
        return await this.#runPrepared<T>(text, params, outside, options).catch(async (err: unknown) => {
          if (!isStale(err)) throw err;
          await this.#forget(text);
          // A transaction's failed statement failed the transaction: the next one prepares it anew.
          if (!outside) throw err;
          return this.#runPrepared<T>(text, params, outside, options);
        });
      } catch (err) {
        // As PGlite's own errors: the statement and its parameters on the error.
        throw Object.assign(err as object, { query: text, params, queryOptions: options });
      }
    });
  }

  /** Statements in one simple query message, within the query lock. */
  #script(text: string, options: QueryOptions | undefined, syncToFs: boolean): Promise<Results[]> {
    return this.#queries.runExclusive(async () => {
      const messages = await this.#run(
        joined([protocol.serialize.query(text), protocol.serialize.sync()]),
        syncToFs,
        options?.onNotice,
      ).catch((err: unknown) => {
        throw Object.assign(err as object, { query: text, params: undefined, queryOptions: options });
      });
      return parse.parseResults(messages, this.parsers, options);
    });
  }

  /**
   * Binds and runs a kept statement in one message. A statement marked GENERIC_PLAN is wrapped in
   * `set plan_cache_mode` and its reset, in the same message: the reset runs even when the statement
   * fails (in a failed transaction the rollback resets it).
   */
  async #runPrepared<T>(
    text: string,
    params: unknown[],
    syncToFs: boolean,
    options?: QueryOptions,
  ): Promise<Results<T>> {
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
    );
    const own = generic ? secondAnswer(messages) : messages;
    const described = describePortal ? fieldsOf(own) : statement.fields;
    return this.#results<T>(described, own, options);
  }

  /** Closes a kept statement and forgets it (a Close of a name the database no longer has is no error). */
  async #forget(text: string) {
    const kept = this.#statements.get(text);
    if (!kept) return;
    this.#statements.delete(text);
    await this.#run(
      joined([protocol.serialize.close({ type: 'S', name: kept.name }), protocol.serialize.sync()]),
      false,
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
    const messages = await this.#run(joined(parts), false);
    const params = messages.find((m) => m.name === 'parameterDescription') as
      | { dataTypeIDs: number[] }
      | undefined;
    const statement = { name, paramTypes: params?.dataTypeIDs ?? [], fields: fieldsOf(messages) };
    this.#statements.set(text, statement);
    return statement;
  }
}
