import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlibConstants } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** The encodings a prebuilt reply comes in, as `@fastify/compress` offers them (see app.ts): brotli first. */
export type ReplyEncoding = 'br' | 'gzip';

/**
 * A JSON reply serialised once for many requests (validated against its response schema by whoever
 * built it): its bytes, and its brotli and gzip forms, each compressed on first demand (off the
 * event loop) and kept with it.
 */
export class PrebuiltJson {
  readonly json: Buffer;
  private readonly encoded = new Map<ReplyEncoding, Promise<Buffer>>();

  constructor(json: Buffer) {
    this.json = json;
  }

  /** The body in `encoding`, compressed once (brotli at the quality app.ts gives every API reply). */
  encodedAs(encoding: ReplyEncoding): Promise<Buffer> {
    let body = this.encoded.get(encoding);
    if (!body) {
      body =
        encoding === 'br'
          ? brotli(this.json, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } })
          : gzipped(this.json);
      this.encoded.set(encoding, body);
    }
    return body;
  }
}

/**
 * The encoding to send for an `Accept-Encoding` header: the one of highest weight it accepts
 * (brotli on a tie, `*` standing for either), or none.
 */
export function replyEncoding(header: string | undefined): ReplyEncoding | undefined {
  if (!header) return undefined;
  const weights = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim());
    const q = params.find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name === 'x-gzip' ? 'gzip' : name, Number.isNaN(weight) ? 0 : weight);
  }
  const weightOf = (e: ReplyEncoding) => weights.get(e) ?? weights.get('*') ?? 0;
  const [best] = (['br', 'gzip'] as const)
    .filter((e) => weightOf(e) > 0)
    .sort((a, b) => weightOf(b) - weightOf(a));
  return best;
}
