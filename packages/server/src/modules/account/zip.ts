import { PassThrough, type Readable } from 'node:stream';
import { strToU8, Zip, ZipDeflate } from 'fflate';

/** One file of a ZIP: its name and its content, produced a piece at a time. */
export interface ZipEntry {
  name: string;
  content: () => AsyncIterable<string | Uint8Array>;
}

/** Waits while the reader is behind (or gone: then the writing stops). */
async function drained(out: PassThrough): Promise<void> {
  if (!out.writableNeedDrain) return;
  await new Promise<void>((resolve) => {
    out.once('drain', resolve);
    out.once('close', resolve);
  });
}

/**
 * A ZIP written as its entries are read (fflate's streaming `Zip`, deflate level 6): memory holds
 * one piece of one entry, whatever the total, and the writing waits for a slow reader. An error
 * (or a reader who left) ends the stream without a central directory.
 */
export function zipStream(entries: AsyncIterable<ZipEntry>): Readable {
  const out = new PassThrough();
  const zip = new Zip((err, data, final) => {
    if (err) out.destroy(err);
    else if (!out.destroyed) {
      out.write(data);
      if (final) out.end();
    }
  });
  (async () => {
    for await (const entry of entries) {
      const file = new ZipDeflate(entry.name, { level: 6 });
      zip.add(file);
      for await (const piece of entry.content()) {
        if (out.destroyed) return;
        file.push(typeof piece === 'string' ? strToU8(piece) : piece);
        await drained(out);
      }
      file.push(new Uint8Array(0), true);
    }
    zip.end();
  })().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}
