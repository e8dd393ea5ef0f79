import type { IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  boardRoom,
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
import type { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import { z } from 'zod';
import { authenticateToken } from '../auth/plugin.ts';
import type { AppContext, AppInstance } from '../context.ts';
import type { DomainEvents } from '../lib/events.ts';
import { isUuid } from '../lib/ids.ts';
import { loadIoredis, loadRedisAdapter } from '../lib/optional-packages.ts';
import { BoardFeed } from './board-feed.ts';

interface SocketData {
  userId: string;
  /** The access token of the handshake, checked again every REVALIDATE_MS and when its user's sessions end. */
  token: string;
  /** How many session notices this node had handled when the handshake began to check the token. */
  noticesAtHandshake: number;
}
interface InterServerEvents {
  /** Another node's `sessionsEnded`: this node holds sockets of that user too. */
  sessionsEnded: (userId: string) => void;
  /** Another node's `accessChanged`: this node's cached boards of those users are dropped. */
  accessChanged: (userIds: string[]) => void;
}
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
   * Disconnect this node's sockets (all, or only those of `userId`) whose token no longer
   * authenticates (expired, sessions ended by a password change or reset, user deleted); their
   * clients reconnect with a fresh token or not at all. Returns how many sockets were dropped.
   * Runs for everyone every `socketRecheckMs` (REVALIDATE_MS), and for one user on every node when `sessionsEnded`.
   */
  revalidate(userId?: string): Promise<number>;
}

/** A socket outlives an expired handshake token by at most this long, unless configured. */
export const REVALIDATE_MS = 30_000;

/** Another node's notice arrives through Redis: parsed like any other input. */
const peerNotice = z.string().refine(isUuid);
const peerAccessNotice = z.array(peerNotice);

/**
 * Socket.IO on the app's own HTTP server. Push-only: clients receive `healthDataUpdate` and
 * `alertsUpdate` for the devices assigned to them and send nothing but `register-user`.
 * With REDIS_URL the Redis adapter carries every emit to the sockets of all server processes.
 * Closed in `preClose`, before the HTTP server stops, so open sockets never hold shutdown up.
 */
export async function registerRealtime(app: AppInstance, ctx: AppContext): Promise<Realtime> {
  const { corsOrigins, redisUrl } = ctx.config;
  const io: RealtimeServer = new Server(app.server, {
    serveClient: false,
    allowRequest: (req, callback) => callback(null, isAllowedOrigin(req, corsOrigins)),
    ...(corsOrigins.length > 0 ? { cors: { origin: corsOrigins } } : {}),
  });

  const redisClients: Redis[] = [];
  if (redisUrl) {
    // Both loaded before either client is made: a failed load leaves no client behind.
    const [{ Redis }, { createAdapter }] = await Promise.all([loadIoredis(), loadRedisAdapter()]);
    // Publishing fails fast while Redis is away (no queue to grow, 1 s for a Redis that stopped
    // answering); subscribing waits for it however long it takes, so a node started during an
    // outage joins the others once Redis is back.
    const pub = new Redis(redisUrl, { enableOfflineQueue: false, commandTimeout: 1000 });
    const sub = new Redis(redisUrl, { maxRetriesPerRequest: null });
    for (const client of [pub, sub]) {
      client.on('error', (err) => app.log.warn({ err: err.message }, 'socket.io redis adapter'));
      redisClients.push(client);
    }
    unhandledByAdapter(pub, ['publish'], app.log);
    unhandledByAdapter(sub, ['subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe'], app.log);
    io.adapter(createAdapter(pub, sub, { key: 'vw:sio' }));
  }

  // Session notices handled on this node. A handshake that was checking its token while one
  // arrived is not in its user's room yet, so the notice missed it: it is checked again on joining.
  let sessionNotices = 0;
  io.use((socket, next) => {
    socket.data.noticesAtHandshake = sessionNotices;
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
    if (socket.data.noticesAtHandshake !== sessionNotices) void revalidateSockets(ctx, [socket], app.log);
    socket.on(SOCKET_EVENTS.registerUser, (userId: unknown, ack?: unknown) =>
      registerUser(socket, userId, ack),
    );
    socket.on(SOCKET_EVENTS.watchBoard, (on: unknown, ack?: unknown) => watchBoard(socket, on, ack));
  });

  // Rooms that may have a listener. Alone, only local rooms count: skipping the rest saves
  // encoding every reading for nobody. With Redis, another node may hold the sockets.
  const listening = (rooms: string[]) =>
    redisClients.length > 0 ? rooms : rooms.filter((r) => io.of('/').adapter.rooms.has(r));
  const listeningRooms = (userIds: string[]) => listening(userIds.map(userRoom));
  const board = new BoardFeed((rooms, records) => io.to(rooms).emit(SOCKET_EVENTS.boardUpdate, records));
  const onHealth = (...[audience, records]: DomainEvents['health']) => {
    const rooms = listeningRooms(audience.userIds);
    if (rooms.length === 0) return;
    // A board's sockets get the coalesced batches instead of every reading.
    const boards = listening(audience.userIds.map(boardRoom));
    if (boards.length > 0) board.add(audience, records);
    const each = boards.length > 0 ? io.to(rooms).except(boards) : io.to(rooms);
    for (const record of records) each.emit(SOCKET_EVENTS.healthDataUpdate, record);
  };
  const onAlerts = (...[audience, alerts]: DomainEvents['alerts']) => {
    const rooms = listeningRooms(audience.userIds);
    if (rooms.length === 0 || alerts.length === 0) return;
    io.to(rooms).emit(SOCKET_EVENTS.alertsUpdate, alerts);
  };
  const onLifecycle = (...[audience, alerts]: DomainEvents['alertLifecycle']) => {
    const rooms = listeningRooms(audience.userIds);
    if (rooms.length === 0) return;
    for (const alert of alerts) io.to(rooms).emit(SOCKET_EVENTS.alertLifecycleUpdate, alert);
  };
  // Through the adapter, so a user's sockets on every node hear it; the other nodes' boards are
  // told apart (their cached snapshots of these users are dropped: see BoardService.accessChanged).
  const onAccessChanged = (...[userIds]: DomainEvents['accessChanged']) => {
    io.to(userIds.map(userRoom)).emit(SOCKET_EVENTS.devicesChanged);
    if (redisClients.length > 0) io.serverSideEmit('accessChanged', userIds);
  };
  const onPeerAccessChanged = (userIds: unknown) => {
    const parsed = peerAccessNotice.safeParse(userIds);
    if (parsed.success) ctx.board.accessChanged(parsed.data);
    else app.log.warn('ignored a malformed accessChanged notice from another node');
  };
  io.on('accessChanged', onPeerAccessChanged);
  ctx.events.on('health', onHealth);
  ctx.events.on('alerts', onAlerts);
  ctx.events.on('alertLifecycle', onLifecycle);
  ctx.events.on('accessChanged', onAccessChanged);

  const revalidate = (userId?: string) => {
    const { sockets, adapter } = io.of('/');
    const ids = userId === undefined ? sockets.keys() : (adapter.rooms.get(userRoom(userId)) ?? []);
    const chosen = [...ids].flatMap((id) => sockets.get(id) ?? []);
    return revalidateSockets(ctx, chosen, app.log);
  };
  // Re-authenticate rather than disconnect: a socket opened with a token issued after the sessions
  // ended (the one change-password returns) belongs to a live session and stays.
  const onSessionNotice = (userId: string) => {
    sessionNotices += 1;
    void revalidate(userId);
  };
  const onSessionsEnded = (...[userId]: DomainEvents['sessionsEnded']) => {
    onSessionNotice(userId);
    // With Redis, other nodes hold sockets of this user too; they check them against the same database.
    if (redisClients.length > 0) io.serverSideEmit('sessionsEnded', userId);
  };
  const onPeerSessionsEnded = (userId: unknown) => {
    const parsed = peerNotice.safeParse(userId);
    if (parsed.success) onSessionNotice(parsed.data);
    else app.log.warn('ignored a malformed sessionsEnded notice from another node');
  };
  ctx.events.on('sessionsEnded', onSessionsEnded);
  io.on('sessionsEnded', onPeerSessionsEnded);

  const timer = setInterval(() => void revalidate(), ctx.config.socketRecheckMs ?? REVALIDATE_MS);
  timer.unref();

  app.addHook('preClose', async () => {
    clearInterval(timer);
    board.stop();
    ctx.events.off('health', onHealth);
    ctx.events.off('alerts', onAlerts);
    ctx.events.off('alertLifecycle', onLifecycle);
    ctx.events.off('accessChanged', onAccessChanged);
    ctx.events.off('sessionsEnded', onSessionsEnded);
    // Local only: with the Redis adapter, io.disconnectSockets() would disconnect every node's sockets.
    io.local.disconnectSockets(true);
    io.engine.close();
    await io.of('/').adapter.close();
    await Promise.all(redisClients.map(closeRedis));
  });
  return { io, revalidate };
}

/** Drops the sockets whose token no longer authenticates their user, checking each distinct token once. */
async function revalidateSockets(
  ctx: AppContext,
  sockets: RealtimeSocket[],
  log: FastifyBaseLogger,
): Promise<number> {
  const byToken = new Map<string, RealtimeSocket[]>();
  for (const socket of sockets) {
    const list = byToken.get(socket.data.token);
    if (list) list.push(socket);
    else byToken.set(socket.data.token, [socket]);
  }
  let dropped = 0;
  for (const [token, group] of byToken) {
    let auth: Awaited<ReturnType<typeof authenticateToken>>;
    try {
      auth = await authenticateToken(ctx.users, ctx.tokens, token, ctx.twoFactor.mayOmit);
    } catch (err) {
      // The database is unreachable: keep the sockets, check again next time.
      log.warn({ err }, 'socket revalidation skipped');
      return dropped;
    }
    if (auth && auth.userId === group[0]?.data.userId) continue;
    // A check running alongside (periodic and per-user ones overlap) may have dropped some already.
    const live = group.filter((socket) => socket.connected);
    for (const socket of live) socket.disconnect(true);
    dropped += live.length;
  }
  return dropped;
}

/**
 * The adapter calls these commands without handling their answer: with Redis down, each failure
 * would be an unhandled rejection, which ends the process. This node's own sockets are still
 * served (the adapter delivers locally as well); only other nodes miss the message. So failures
 * are logged, at most every 10 s, and the server goes on.
 */
function unhandledByAdapter(
  client: Redis,
  commands: ('publish' | 'subscribe' | 'psubscribe' | 'unsubscribe' | 'punsubscribe')[],
  log: FastifyBaseLogger,
): void {
  let warnedAt = 0;
  for (const command of commands) {
    const original = client[command].bind(client) as (...args: unknown[]) => Promise<unknown>;
    const guarded = (...args: unknown[]) =>
      original(...args).catch((err: unknown) => {
        if (Date.now() - warnedAt > 10_000) {
          warnedAt = Date.now();
          log.warn({ err, command }, 'Redis unavailable: real-time events reach only this server’s sockets');
        }
        return 0;
      });
    Object.assign(client, { [command]: guarded });
  }
}

/** Quit politely if Redis answers within a second, else just drop the connection. */
async function closeRedis(client: Redis): Promise<void> {
  const quit = client.quit().catch(() => {});
  await Promise.race([quit, sleep(1000, undefined, { ref: false })]);
  client.disconnect();
}

/** Handshake: `auth: {token}` must be a valid access token of an existing user. Returns the refusal, if any. */
async function authenticateSocket(ctx: AppContext, socket: RealtimeSocket): Promise<Error | undefined> {
  const parsed = socketAuth.safeParse(socket.handshake.auth);
  if (!parsed.success) return new Error(SERVER_MESSAGES.unauthenticated);
  const auth = await authenticateToken(ctx.users, ctx.tokens, parsed.data.token, ctx.twoFactor.mayOmit);
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
 * `watch-board`: `true` moves this socket to the board's coalesced batches (its user's board room),
 * `false` back to every reading. It only ever joins its own user's room.
 */
function watchBoard(socket: RealtimeSocket, on: unknown, ack: unknown) {
  const parsed = z.boolean().safeParse(on);
  if (parsed.success) {
    if (parsed.data) void socket.join(boardRoom(socket.data.userId));
    else void socket.leave(boardRoom(socket.data.userId));
  }
  const result: SocketAck = parsed.success
    ? {
        success: true,
        message: parsed.data ? SOCKET_MESSAGES.watchingBoard : SOCKET_MESSAGES.notWatchingBoard,
      }
    : { success: false, message: SOCKET_MESSAGES.watchBoardInvalid };
  if (typeof ack === 'function') ack(result);
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
