import { vi } from 'vitest';

type Handler = (...args: unknown[]) => void;

/** Stands in for a socket.io-client Socket: records options and emits, lets a test fire events. */
export class FakeSocket {
  readonly handlers = new Map<string, Handler[]>();
  active = true;
  connected = false;
  readonly emit = vi.fn();
  readonly connect = vi.fn(() => {
    this.active = true;
  });
  readonly disconnect = vi.fn(() => {
    this.active = false;
    this.connected = false;
  });
  constructor(readonly options: Record<string, unknown>) {}

  on(event: string, handler: Handler) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);
    return this;
  }

  removeAllListeners() {
    this.handlers.clear();
    return this;
  }

  fire(event: string, ...args: unknown[]) {
    if (event === 'connect') this.connected = true;
    for (const handler of this.handlers.get(event) ?? []) handler(...args);
  }
}

export const sockets: FakeSocket[] = [];

/** The module mock: `vi.mock('socket.io-client', () => import('./socket-fake.ts').then((m) => m.ioModule()))`. */
export const ioModule = () => ({
  io: vi.fn((options: Record<string, unknown>) => {
    const socket = new FakeSocket(options);
    sockets.push(socket);
    return socket;
  }),
});

export const lastSocket = (): FakeSocket => {
  const socket = sockets.at(-1);
  if (!socket) throw new Error('no socket was opened');
  return socket;
};
