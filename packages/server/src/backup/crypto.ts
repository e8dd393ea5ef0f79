import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';

/**
 * The file's first bytes: "VWBACKUP", the format version, flags (bit 0: encrypted) and, when
 * encrypted, the scrypt parameters (log2 N, r, p), the 16-byte salt and an 8-byte nonce prefix.
 */
export const MAGIC = Buffer.from('VWBACKUP');
export const FORMAT_VERSION = 1;
const FLAG_ENCRYPTED = 1;

/** scrypt N = 2^17, r = 8, p = 1: OWASP's password-storage minimum (N = 2^17), about 0.3 s per key. */
const SCRYPT = { logN: 17, r: 8, p: 1 };
/** Plaintext bytes per encrypted chunk. */
const CHUNK = 64 * 1024;
const TAG = 16;

export class BackupFileError extends Error {}

export interface Preamble {
  bytes: Buffer;
  encryption: { key: Buffer; noncePrefix: Buffer } | null;
}

function deriveKey(passphrase: string, salt: Buffer, logN: number, r: number, p: number): Buffer {
  const N = 2 ** logN;
  return scryptSync(passphrase, salt, 32, { N, r, p, maxmem: 256 * N * r });
}

/** A new file's preamble; with a passphrase, a fresh salt and key. */
export function newPreamble(passphrase: string | undefined): Preamble {
  if (!passphrase)
    return { bytes: Buffer.concat([MAGIC, Buffer.from([FORMAT_VERSION, 0])]), encryption: null };
  const salt = randomBytes(16);
  const noncePrefix = randomBytes(8);
  const bytes = Buffer.concat([
    MAGIC,
    Buffer.from([FORMAT_VERSION, FLAG_ENCRYPTED, SCRYPT.logN, SCRYPT.r, SCRYPT.p]),
    salt,
    noncePrefix,
  ]);
  return {
    bytes,
    encryption: { key: deriveKey(passphrase, salt, SCRYPT.logN, SCRYPT.r, SCRYPT.p), noncePrefix },
  };
}

/** Reads exactly the bytes asked for from a byte stream, or fewer at its end. */
export class ByteReader {
  private buffered = Buffer.alloc(0);
  private readonly source: AsyncIterator<Buffer>;
  private ended = false;

  constructor(source: AsyncIterable<Buffer>) {
    this.source = source[Symbol.asyncIterator]();
  }

  async read(n: number): Promise<Buffer> {
    while (this.buffered.length < n && !this.ended) {
      const next = await this.source.next();
      if (next.done) this.ended = true;
      else this.buffered = Buffer.concat([this.buffered, next.value]);
    }
    const out = this.buffered.subarray(0, n);
    this.buffered = this.buffered.subarray(out.length);
    return out;
  }

  /** What is left, as it arrives. */
  async *rest(): AsyncGenerator<Buffer> {
    if (this.buffered.length > 0) yield this.buffered;
    this.buffered = Buffer.alloc(0);
    while (!this.ended) {
      const next = await this.source.next();
      if (next.done) this.ended = true;
      else yield next.value;
    }
  }
}

/** Read and check a file's preamble; a passphrase is required exactly when the file is encrypted. */
export async function readPreamble(reader: ByteReader, passphrase: string | undefined): Promise<Preamble> {
  const head = await reader.read(MAGIC.length + 2);
  if (head.length < MAGIC.length + 2 || !head.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new BackupFileError('not a VitalWatch backup file (its first bytes are not "VWBACKUP")');
  }
  const version = head[MAGIC.length]!;
  if (version !== FORMAT_VERSION) {
    throw new BackupFileError(
      `backup format ${version} is not known to this version (it reads format ${FORMAT_VERSION})`,
    );
  }
  if ((head[MAGIC.length + 1]! & FLAG_ENCRYPTED) === 0) {
    if (passphrase) throw new BackupFileError('the backup file is not encrypted, but a passphrase was given');
    return { bytes: head, encryption: null };
  }
  if (!passphrase)
    throw new BackupFileError('the backup file is encrypted: give its passphrase (BACKUP_PASSPHRASE)');
  const rest = await reader.read(3 + 16 + 8);
  if (rest.length < 27) throw new BackupFileError('the backup file is truncated (in its header)');
  const [logN, r, p] = [rest[0]!, rest[1]!, rest[2]!];
  if (logN < 10 || logN > 22 || r < 1 || r > 32 || p < 1 || p > 16) {
    throw new BackupFileError('the backup file is corrupted (its key parameters are out of range)');
  }
  const salt = rest.subarray(3, 19);
  const key = deriveKey(passphrase, salt, logN, r, p);
  return {
    bytes: Buffer.concat([head, rest]),
    encryption: { key, noncePrefix: Buffer.from(rest.subarray(19, 27)) },
  };
}

const nonceOf = (prefix: Buffer, index: number) => {
  const nonce = Buffer.alloc(12);
  prefix.copy(nonce, 0);
  nonce.writeUInt32BE(index, 8);
  return nonce;
};
/** The chunk's index and whether it is the last are authenticated: chunks cannot be dropped, reordered or cut. */
const aadOf = (preamble: Buffer, index: number, final: boolean) => {
  const tail = Buffer.alloc(5);
  tail.writeUInt32BE(index, 0);
  tail[4] = final ? 1 : 0;
  return Buffer.concat([preamble, tail]);
};

/**
 * AES-256-GCM in chunks: each frame is [final flag: 1 byte][ciphertext length: 4 bytes BE]
 * [ciphertext][16-byte tag], its nonce the file's prefix and the chunk's index.
 */
export async function* encryptChunks(
  source: AsyncIterable<Buffer>,
  preamble: Preamble,
): AsyncGenerator<Buffer> {
  const enc = preamble.encryption;
  if (!enc) throw new Error('encryptChunks needs a key');
  let index = 0;
  let pending = Buffer.alloc(0);
  const seal = (plain: Buffer, final: boolean) => {
    const cipher = createCipheriv('aes-256-gcm', enc.key, nonceOf(enc.noncePrefix, index));
    cipher.setAAD(aadOf(preamble.bytes, index, final));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    const head = Buffer.alloc(5);
    head[0] = final ? 1 : 0;
    head.writeUInt32BE(body.length, 1);
    index += 1;
    return Buffer.concat([head, body, cipher.getAuthTag()]);
  };
  for await (const chunk of source) {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length > CHUNK) {
      yield seal(pending.subarray(0, CHUNK), false);
      pending = pending.subarray(CHUNK);
    }
  }
  yield seal(pending, true);
}

export async function* decryptChunks(reader: ByteReader, preamble: Preamble): AsyncGenerator<Buffer> {
  const enc = preamble.encryption;
  if (!enc) throw new Error('decryptChunks needs a key');
  for (let index = 0; ; index += 1) {
    const head = await reader.read(5);
    if (head.length < 5)
      throw new BackupFileError('the backup file is truncated (its last encrypted chunk is missing)');
    const final = head[0] === 1;
    const length = head.readUInt32BE(1);
    if (length > CHUNK)
      throw new BackupFileError('the backup file is corrupted (an encrypted chunk is too long)');
    const body = await reader.read(length + TAG);
    if (body.length < length + TAG)
      throw new BackupFileError('the backup file is truncated (in an encrypted chunk)');
    const decipher = createDecipheriv('aes-256-gcm', enc.key, nonceOf(enc.noncePrefix, index));
    decipher.setAAD(aadOf(preamble.bytes, index, final));
    decipher.setAuthTag(body.subarray(length));
    let plain: Buffer;
    try {
      plain = Buffer.concat([decipher.update(body.subarray(0, length)), decipher.final()]);
    } catch {
      throw new BackupFileError(
        index === 0
          ? 'the backup file cannot be decrypted: wrong passphrase, or the file is corrupted'
          : `the backup file is corrupted (encrypted chunk ${index} fails its check)`,
      );
    }
    yield plain;
    if (final) {
      if ((await reader.read(1)).length > 0)
        throw new BackupFileError('the backup file has bytes after its end');
      return;
    }
  }
}
