import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { z } from 'zod';
import { schemaVersion } from './catalog.ts';
import { BackupFileError, ByteReader, decryptChunks, FORMAT_VERSION, readPreamble } from './crypto.ts';

/**
 * Inside the gzip stream: one line per record. Lines starting with "@" are the file's own records
 * (header, the start of each table, trailer); the others are rows, each a JSON object as PostgreSQL's
 * `row_to_json` writes it (so bigints, timestamps and jsonb keep their exact text).
 */
export const backupKeys = z.object({
  jwtSecret: z.string().min(32),
  vapid: z.object({ publicKey: z.string(), privateKey: z.string() }).nullable(),
});
export type BackupKeys = z.output<typeof backupKeys>;

export const headerRecord = z.object({
  kind: z.literal('header'),
  format: z.literal(FORMAT_VERSION),
  createdAt: z.string(),
  source: z.enum(['pglite', 'postgres']),
  schema: schemaVersion,
  tables: z.array(
    z.object({ name: z.string(), columns: z.array(z.string()), rows: z.number().int().min(0) }),
  ),
  partitions: z.array(
    z.object({ parent: z.string(), name: z.string(), bound: z.string(), from: z.string().nullable() }),
  ),
  sequences: z.array(z.object({ name: z.string(), lastValue: z.string().nullable() })),
  /**
   * The server's own keys: the JWT secret (two-factor secrets are sealed with a key made from it,
   * so they are unreadable without it) and the VAPID pair (browsers' push subscriptions belong to it).
   */
  keys: backupKeys,
});
export type BackupHeader = z.output<typeof headerRecord>;

const tableRecord = z.object({ kind: z.literal('table'), name: z.string() });
const trailerRecord = z.object({
  kind: z.literal('trailer'),
  rows: z.record(z.string(), z.number()),
  /** SHA-256 of every line before the trailer, newlines included. */
  sha256: z.string(),
});
const controlRecord = z.discriminatedUnion('kind', [headerRecord, tableRecord, trailerRecord]);

export const controlLine = (record: object) => `@${JSON.stringify(record)}\n`;

/** Hashes the lines as they are written, and writes the trailer from what it saw. */
export class LineHasher {
  private readonly hash = createHash('sha256');

  add(text: string): string {
    this.hash.update(text);
    return text;
  }

  trailer(rows: Record<string, number>): string {
    return controlLine({ kind: 'trailer', rows, sha256: this.hash.digest('hex') });
  }
}

/** A backup file's lines after the header: the table each row belongs to, and its JSON text. */
export interface BackupReader {
  header: BackupHeader;
  /** Every row once, in file order; throws BackupFileError on anything out of place. */
  rows(): AsyncGenerator<{ table: string; json: string }>;
}

async function* linesOf(source: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  for await (const chunk of source) {
    pending += decoder.write(chunk);
    let at = pending.indexOf('\n');
    while (at >= 0) {
      yield pending.slice(0, at + 1);
      pending = pending.slice(at + 1);
      at = pending.indexOf('\n');
    }
  }
  pending += decoder.end();
  if (pending.length > 0) throw new BackupFileError('the backup file is truncated (its last line is cut)');
}

async function* gunzipped(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const gunzip = createGunzip();
  // pipe() does not pass the source's error on (a BackupFileError of the decryption).
  const input = Readable.from(source);
  input.on('error', (err) => gunzip.destroy(err));
  input.pipe(gunzip);
  try {
    for await (const chunk of gunzip) yield chunk as Buffer;
  } catch (err) {
    if (err instanceof BackupFileError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new BackupFileError(
      code === 'Z_BUF_ERROR'
        ? 'the backup file is truncated (its compressed data ends early)'
        : `the backup file is corrupted (${(err as Error).message})`,
    );
  }
}

function parseControl(line: string) {
  try {
    return controlRecord.parse(JSON.parse(line.slice(1)));
  } catch {
    throw new BackupFileError('the backup file is corrupted (a record of the file cannot be read)');
  }
}

/**
 * Open a backup file: its preamble and header are read and checked now, its rows as they are
 * iterated. Iterating to the end checks every count and the checksum; a caller writes nothing
 * until one such pass succeeded (`verifyBackup`).
 */
export async function openBackup(
  source: AsyncIterable<Buffer> | string,
  passphrase: string | undefined,
): Promise<BackupReader> {
  const bytes = typeof source === 'string' ? createReadStream(source) : source;
  const reader = new ByteReader(bytes);
  const preamble = await readPreamble(reader, passphrase);
  const body = preamble.encryption ? decryptChunks(reader, preamble) : reader.rest();
  const lines = linesOf(gunzipped(body));
  const hasher = new LineHasher();
  const first = await lines.next();
  if (first.done) throw new BackupFileError('the backup file is truncated (it has no header)');
  const head = parseControl(hasher.add(first.value));
  if (head.kind !== 'header')
    throw new BackupFileError('the backup file is corrupted (it does not start with a header)');
  const expected = new Map(head.tables.map((t) => [t.name, t.rows]));
  return {
    header: head,
    async *rows() {
      const seen = new Map<string, number>();
      let table: string | undefined;
      for await (const line of lines) {
        if (!line.startsWith('@')) {
          if (table === undefined)
            throw new BackupFileError('the backup file is corrupted (a row before any table)');
          hasher.add(line);
          seen.set(table, (seen.get(table) ?? 0) + 1);
          yield { table, json: line };
          continue;
        }
        const record = parseControl(line);
        if (record.kind === 'table') {
          if (!expected.has(record.name))
            throw new BackupFileError(`the backup file is corrupted (unknown table ${record.name})`);
          hasher.add(line);
          table = record.name;
          continue;
        }
        if (record.kind !== 'trailer')
          throw new BackupFileError('the backup file is corrupted (a second header)');
        const sha = hasher.trailer({}).match(/"sha256":"([0-9a-f]+)"/)?.[1];
        if (sha !== record.sha256)
          throw new BackupFileError('the backup file is corrupted (its checksum does not match)');
        for (const [name, rows] of expected) {
          const got = seen.get(name) ?? 0;
          if (got !== rows || record.rows[name] !== rows) {
            throw new BackupFileError(
              `the backup file is corrupted (table ${name}: ${got} rows, ${rows} expected)`,
            );
          }
        }
        if (!(await lines.next()).done)
          throw new BackupFileError('the backup file has records after its trailer');
        return;
      }
      throw new BackupFileError('the backup file is truncated (its trailer is missing)');
    },
  };
}

/** Read a whole backup file and check it: counts, checksum, trailer. Returns its header. */
export async function verifyBackup(
  source: () => AsyncIterable<Buffer> | string,
  passphrase: string | undefined,
  onRows?: (rows: number, header: BackupHeader) => void,
): Promise<BackupHeader> {
  const reader = await openBackup(source(), passphrase);
  let n = 0;
  for await (const _ of reader.rows()) {
    n += 1;
    if (onRows && n % 100_000 === 0) onRows(n, reader.header);
  }
  return reader.header;
}
