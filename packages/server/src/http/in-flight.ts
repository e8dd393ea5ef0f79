import type { Server } from 'node:http';

/**
 * Counts requests between arrival and the end of their response. Fastify's `close()` resolves
 * without waiting for them, so shutdown waits here before the database closes.
 */
export function trackInFlight(server: Server) {
  let count = 0;
  let waiters: Array<() => void> = [];
  server.on('request', (_req, res) => {
    count++;
    res.once('close', () => {
      count--;
      if (count === 0) {
        for (const resolve of waiters) resolve();
        waiters = [];
      }
    });
  });
  return {
    get count() {
      return count;
    },
    /** Resolves once no request is in flight. */
    idle(): Promise<void> {
      return count === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
    },
  };
}
