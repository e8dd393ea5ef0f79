/** What the server's thread and the embedded database's thread (`pglite-worker.ts`) say to each other. */

/** How the database's thread starts: its data directory (none: in memory) and a dump to load first. */
export interface WorkerStart {
  dataDir?: string;
  load?: ArrayBuffer;
}

export type WorkerAsk =
  /** Run these PostgreSQL wire protocol messages; answer with PostgreSQL's messages. */
  | { id: number; op: 'protocol'; bytes: Uint8Array; syncToFs: boolean }
  /** The data directory as a tar file. */
  | { id: number; op: 'dump'; compression: 'none' | 'gzip' | 'auto' | undefined }
  | { id: number; op: 'close' };

/** The answer to ask `id` (0: the database is up, or failed to start). */
export type WorkerAnswer = { id: number; bytes: Uint8Array } | { id: number; failed: string };

/** Messages (or answers) end to end, in one buffer of their own. */
export const joined = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
