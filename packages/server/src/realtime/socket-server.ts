import type { IncomingMessage } from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import {
  type ClientToServerEvents,
  registerUserPayload,
  SERVER_MESSAGES,
  type ServerToClientEvents,
  SOCKET_EVENTS,
  SOCKET_MESSAGES,
  type SocketAck,
  socketAuth,
  userRoom,
} from '@vitalwatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import { authenticateToken } from '../auth/plugin.ts';
import type { AppContext, AppInstance } from '../context.ts';
import type { DomainEvents } from '../lib/events.ts';

interface SocketData {
  userId: string;
  /** The access token of the handshake, checked again every REVALIDATE_MS. */
  token: string;
}
type InterServerEvents = Record<string, never>;
export type RealtimeServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  InterServerEvents,
  SocketData
>;
type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

export interface Realtime {
  io: RealtimeServer;
  /**
   * Disconnect this node's sockets whose token no longer authenticates (expired, sessions ended
   * by a password reset, user deleted); their clients reconnect with a fresh token or not at all.
   * Runs every REVALIDATE_MS; returns how many sockets were dropped.
   */
  revalidate(): Promise<number>;
}

/** A socket outlives its handshake token by at most this long. */
export const REVALIDATE_MS = 30_000;

/**
 * Socket.IO on the app's own HTTP server. Push-only: clients receive `healthDataUpdate` and
 * `alertsUpdate` for the devices assigned to them and send nothing but `register-user`.
 * With REDIS_URL the Redis adapter carries every emit to the sockets of all server processes.
 * Closed in `preClose`, before the HTTP server stops, so open sockets never hold shutdown up.
 */
export function registerRealtime(app: AppInstance, ctx: AppContext): Realtime {
  const { corsOrigins, redisUrl } = ctx.config;
  const io: RealtimeServer = new Server(app.server, {
    serveClient: false,
    allowRequest: (req, callback) => callback(null, isAllowedOrigin(req, corsOrigins)),
    ...(corsOrigins.length > 0 ? { cors: { origin: corsOrigins } } : {}),
  });

  const redisClients: Redis[] = [];
  if (redisUrl) {
    const pub = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
    const sub = pub.duplicate();
    for (const client of [pub, sub]) {
      client.on('error', (err) => app.log.warn({ err: err.message }, 'socket.io redis adapter'));
      redisClients.push(client);
    }
    io.adapter(createAdapter(pub, sub, { key: 'vw:sio' }));
  }

  io.use((socket, next) => {
    authenticateSocket(ctx, socket).then(
      (error) => next(error),
      (err: unknown) => {
        app.log.error({ err }, 'socket handshake failed');
        next(new Error(SERVER_MESSAGES.internal));
      },
    );
  });
  io.on('connection', (socket) => {
    void socket.join(userRoom(socket.data.userId));
    socket.on(SOCKET_EVENTS.registerUser, (userId: unknown, ack?: unknown) =>
      registerUser(socket, userId, ack),
    );
  });

  // Rooms that may have a listener. Alone, only local rooms count: skipping the rest saves
  // encoding every reading for nobody. With Redis, another node may hold the sockets.
  const listeningRooms = (userIds: string[]) => {
    const rooms = userIds.map(userRoom);
    return redisClients.length > 0 ? rooms : rooms.filter((r) => io.of('/').adapter.rooms.has(r));
  };
  const onHealth = (...[audience, records]: DomainEvents['health']) => {
    const rooms = listeningRooms(audience.userIds);
    if (rooms.length === 0) return;
    for (const record of records) io.to(rooms).emit(SOCKET_EVENTS.healthDataUpdate, record);
  };
  const onAlerts = (...[audience, alerts]: DomainEvents['alerts']) => {
    const rooms = listeningRooms(audience.userIds);
    if (rooms.length === 0 || alerts.length === 0) return;
    io.to(rooms).emit(SOCKET_EVENTS.alertsUpdate, alerts);
  };
  ctx.events.on('health', onHealth);
  ctx.events.on('alerts', onAlerts);

  const revalidate = () => revalidateSockets(ctx, io, app.log);
  const timer = setInterval(() => void revalidate(), REVALIDATE_MS);
  timer.unref();

  app.addHook('preClose', async () => {
    clearInterval(timer);
    ctx.events.off('health', onHealth);
    ctx.events.off('alerts', onAlerts);
    // Local only: with the Redis adapter, io.disconnectSockets() would disconnect every node's sockets.
    io.local.disconnectSockets(true);
    io.engine.close();
    await io.of('/').adapter.close();
    await Promise.all(redisClients.map((c) => c.quit().catch(() => {})));
  });
  return { io, revalidate };
}

async function revalidateSockets(
  ctx: AppContext,
  io: RealtimeServer,
  log: FastifyBaseLogger,
): Promise<number> {
  const byToken = new Map<string, RealtimeSocket[]>();
  for (const socket of io.of('/').sockets.values()) {
    const list = byToken.get(socket.data.token);
    if (list) list.push(socket);
    else byToken.set(socket.data.token, [socket]);
  }
  let dropped = 0;
  for (const [token, sockets] of byToken) {
    let auth: Awaited<ReturnType<typeof authenticateToken>>;
    try {
      auth = await authenticateToken(ctx.db, ctx.tokens, token);
    } catch (err) {
      // The database is unreachable: keep the sockets, check again next time.
      log.warn({ err }, 'socket revalidation skipped');
      return dropped;
    }
    if (auth && auth.userId === sockets[0]?.data.userId) continue;
    for (const socket of sockets) socket.disconnect(true);
    dropped += sockets.length;
  }
  return dropped;
}

/** Handshake: `auth: {token}` must be a valid access token of an existing user. Returns the refusal, if any. */
async function authenticateSocket(ctx: AppContext, socket: RealtimeSocket): Promise<Error | undefined> {
  const parsed = socketAuth.safeParse(socket.handshake.auth);
  if (!parsed.success) return new Error(SERVER_MESSAGES.unauthenticated);
  const auth = await authenticateToken(ctx.db, ctx.tokens, parsed.data.token);
  if (!auth) return new Error(SERVER_MESSAGES.invalidToken);
  socket.data.userId = auth.userId;
  socket.data.token = parsed.data.token;
  return undefined;
}

/**
 * The socket already sits in its own user's room; `register-user` only confirms that. Any other
 * id is refused, so a client can never listen to someone else's devices.
 */
function registerUser(socket: RealtimeSocket, userId: unknown, ack: unknown) {
  const parsed = registerUserPayload.safeParse(userId);
  let result: SocketAck;
  if (!parsed.success) result = { success: false, message: SOCKET_MESSAGES.registerInvalid };
  else if (parsed.data !== socket.data.userId)
    result = { success: false, message: SOCKET_MESSAGES.registerOwnIdOnly };
  else result = { success: true, message: SOCKET_MESSAGES.registered };
  if (typeof ack === 'function') ack(result);
  else if (!result.success) socket.emit('register-user-error', result);
}

/**
 * Same origin by default. Browsers always send Origin on cross-site WebSocket and CORS requests;
 * clients that send none (devices, scripts) are not browsers and still need a valid token.
 */
function isAllowedOrigin(req: IncomingMessage, corsOrigins: string[]): boolean {
  const origin = req.headers.origin;
  if (!origin) return true;
  if (corsOrigins.includes(origin)) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}
