/**
 * The embedded database's own thread: a PGlite that answers the server's thread in the PostgreSQL
 * wire protocol (see `ServerPGlite`). It does what it is asked, in the order asked: run a message
 * and give back PostgreSQL's answer, dump the data directory, close. It keeps no state of its own.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { joined, type WorkerAnswer, type WorkerAsk, type WorkerStart } from './pglite-protocol.ts';

const port = parentPort;
if (!port) throw new Error('pglite-worker.ts runs as a worker thread (ServerPGlite starts it)');

const start = workerData as WorkerStart;
const db = new PGlite({
  dataDir: start.dataDir,
  loadDataDir: start.load ? new Blob([start.load]) : undefined,
  // The extensions the migrations create (pg_trgm for the admin's search).
  extensions: { pg_trgm },
});

/**
 * PostgreSQL's answer to these messages, as bytes. Not `execProtocolRaw`: it also parses every
 * answer into messages for PGlite's own `query`, a third of this thread's time under a 200-device
 * list, for messages nobody here reads. The server's thread parses the answer.
 */
async function run(bytes: Uint8Array, syncToFs: boolean) {
  const chunks: Uint8Array[] = [];
  // Each chunk is a view of the database's memory, written over by the next: copied.
  await db.execProtocolRawStream(bytes, { syncToFs, onRawData: (chunk) => chunks.push(chunk.slice()) });
  return chunks.length === 1 ? (chunks[0] as Uint8Array) : joined(chunks);
}

async function answer(ask: WorkerAsk): Promise<WorkerAnswer> {
  switch (ask.op) {
    case 'protocol':
      return { id: ask.id, bytes: await run(ask.bytes, ask.syncToFs) };
    case 'dump':
      return {
        id: ask.id,
        bytes: new Uint8Array(await (await db.dumpDataDir(ask.compression)).arrayBuffer()),
      };
    case 'close':
      await db.close();
      return { id: ask.id, bytes: new Uint8Array(0) };
  }
}

/** One ask at a time, in the order they came: each waits for the one before it. */
let previous: Promise<unknown> = Promise.resolve();
port.on('message', (ask: WorkerAsk) => {
  previous = previous.then(async () => {
    let aborted = false;
    const reply = await answer(ask).catch((err: unknown): WorkerAnswer => {
      // PostgreSQL answers a failed statement with an ErrorResponse among its bytes: a throw is
      // PGlite's WebAssembly aborted, trapped or out of stack, and its database is not to be trusted.
      aborted = ask.op === 'protocol' || err instanceof WebAssembly.RuntimeError;
      return { id: ask.id, failed: err instanceof Error ? err.message : String(err) };
    });
    port.postMessage(reply, 'bytes' in reply ? [reply.bytes.buffer as ArrayBuffer] : []);
    // The thread ends, as on a crash: the server starts another on the data directory.
    if (aborted) process.exit(1);
  });
});

db.waitReady.then(
  () => port.postMessage({ id: 0, bytes: new Uint8Array(0) } satisfies WorkerAnswer),
  (err: unknown) =>
    port.postMessage({
      id: 0,
      failed: err instanceof Error ? err.message : String(err),
    } satisfies WorkerAnswer),
);
