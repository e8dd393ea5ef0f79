import { type PGlite, type protocol, type QueryOptions, type Results, types } from '@electric-sql/pglite';

type BackendMessage = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];

/** A row's message as PGlite's parser gives it: each column's text, or null. */
export interface DataRow {
  name: 'dataRow';
  length: number;
  fields: (string | null)[];
}

const DATA_ROW = 0x44; // 'D'

/**
 * Each message of a whole answer of PostgreSQL's, in order. Rows are read here: PGlite's parser
 * copies each column's bytes into an `ArrayBuffer` of its own before decoding them, a fifth of the
 * server's thread under a 200-device list. Here each column is decoded from the answer in place.
 * Every other message (descriptions, errors, notices, counts) goes to PGlite's parser, one at a time.
 */
export function eachMessage(
  answer: Uint8Array,
  parser: protocol.Parser,
  each: (m: BackendMessage | DataRow) => void,
) {
  const bytes = Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength);
  let at = 0;
  while (at + 5 <= bytes.length) {
    const length = bytes.readInt32BE(at + 1);
    const end = at + 1 + length;
    if (bytes[at] === DATA_ROW) {
      const fields: (string | null)[] = new Array(bytes.readInt16BE(at + 5));
      let field = at + 7;
      for (let i = 0; i < fields.length; i++) {
        const size = bytes.readInt32BE(field);
        field += 4;
        if (size < 0) fields[i] = null;
        else {
          fields[i] = bytes.toString('utf8', field, field + size);
          field += size;
        }
      }
      each({ name: 'dataRow', length, fields });
    } else parser.parse(answer.subarray(at, end), each);
    at = end;
  }
}

/** A column of a statement's rows: its name and type. */
export interface Field {
  name: string;
  dataTypeID: number;
}

/** The messages of a result as PGlite's protocol parser gives them. */
type CommandComplete = { name: 'commandComplete'; text: string };
/** Commands whose tag's count is of rows changed (PGlite's `affectedRows`). */
const CHANGES = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

/**
 * The rows and count of one statement's messages, in PGlite's shape. PGlite's own `parseResults`
 * copied every parser it knows (hundreds, with the array types) into a new object on each query
 * that brings its own (the drizzle driver's always do): a third of the server's time on a
 * profile read. Here each column's parser is looked up once a query.
 */
export function resultsOf<T>(
  fields: Field[],
  messages: BackendMessage[],
  known: Record<number, types.Parser>,
  options?: QueryOptions,
): Results<T> {
  const parsers = fields.map(
    (f) => options?.parsers?.[f.dataTypeID] ?? known[f.dataTypeID] ?? types.parsers[f.dataTypeID],
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
