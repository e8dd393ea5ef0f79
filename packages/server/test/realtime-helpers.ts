import { createServer } from 'node:net';
import type { ClientToServerEvents, ServerToClientEvents } from '@vitalwatch/shared';
import { io, type Socket } from 'socket.io-client';
import { afterEach } from 'vitest';
import type { BuiltApp } from '../src/app.ts';

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Listen on an ephemeral port (once per app) and return the base URL. */
export async function listenOnce(built: BuiltApp): Promise<string> {
  const address = built.app.server.address();
  if (address && typeof address === 'object') return `http://127.0.0.1:${address.port}`;
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const bound = built.app.server.address();
  if (!bound || typeof bound !== 'object') throw new Error('app is not listening');
  return `http://127.0.0.1:${bound.port}`;
}

/** A websocket client; resolves once connected, rejects with the server's connect_error. */
export function connectSocket(
  url: string,
  auth: Record<string, unknown> | undefined,
  extraHeaders: Record<string, string> = {},
): Promise<ClientSocket> {
  const socket: ClientSocket = io(url, {
    auth,
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    timeout: 5000,
    extraHeaders,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });
}

/** `connect` to the app's sockets; every socket it opened is closed after each test. */
export function useSockets(built: () => BuiltApp) {
  const open: ClientSocket[] = [];
  afterEach(() => {
    for (const s of open.splice(0)) s.close();
  });
  return async (auth: Record<string, unknown> | undefined, headers?: Record<string, string>) => {
    const socket = await connectSocket(await listenOnce(built()), auth, headers);
    open.push(socket);
    return socket;
  };
}

/**
 * Resolves with the reason once the socket disconnects; call before the action that should close
 * it. Rejects after `timeoutMs`, so a socket that stays open fails the test instead of hanging it.
 */
export function disconnected(socket: ClientSocket, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('timed out waiting for the socket to disconnect')),
      timeoutMs,
    );
    socket.once('disconnect', (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });
}

/** Every payload a socket receives for one event, in order, and a way to wait for the next. */
export function recordEvents<E extends keyof ServerToClientEvents>(socket: ClientSocket, event: E) {
  type Payload = Parameters<ServerToClientEvents[E]>[0];
  const received: Payload[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const listener = (payload: Payload) => {
    received.push(payload);
    for (const w of [...waiters]) {
      if (received.length >= w.count) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  // socket.io-client types the listener per event; the payload type is the event's own.
  socket.on(event, listener as never);
  return {
    received,
    /** Resolves once `count` payloads arrived in total (rejects after `timeoutMs`). */
    waitFor(count: number, timeoutMs = 5000): Promise<Payload[]> {
      if (received.length >= count) return Promise.resolve(received);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`timed out waiting for ${count} ${String(event)} (got ${received.length})`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(received);
          },
        });
      });
    },
  };
}

/** A TCP port that was free a moment ago (for servers whose port must be given up front). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = address && typeof address === 'object' ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** CI must not silently skip a service-backed test: a missing URL fails there, skips locally. */
export function serviceUrl(
  name: 'TEST_REDIS_URL' | 'TEST_MQTT_URL' | 'TEST_DATABASE_URL',
): string | undefined {
  const url = process.env[name];
  if (!url && process.env.CI === 'true') throw new Error(`CI=true but ${name} is not set`);
  return url;
}
