import type { PGlite, protocol } from '@electric-sql/pglite';

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
