import {
  type AlertLifecycle,
  type AlertRecord,
  alertLifecycle,
  alertRecord,
  boardUpdatePayload,
  type HealthRecord,
  healthRecord,
  SOCKET_EVENTS,
} from '@vitalwatch/shared';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import { z } from 'zod';
import { refreshAccessToken } from './api-client.ts';
import { getAccessToken } from './token-storage.ts';

/** Spec section 7: delay 1 s, at most 5 s, randomisation 0.5, timeout 20 s, never give up. */
export const SOCKET_OPTIONS = {
  transports: ['websocket', 'polling'],
  reconnection: true,
  reconnectionAttempts: Number.POSITIVE_INFINITY,
  reconnectionDelay: 1000,
  reconnectionDelayMax: 5000,
  randomizationFactor: 0.5,
  timeout: 20_000,
} satisfies Partial<ManagerOptions & SocketOptions>;

/** `connected`: live; `connecting`: first attempt; `reconnecting`: lost and trying again; `offline`: not started. */
export type RealtimeStatus = 'offline' | 'connecting' | 'connected' | 'reconnecting';

/** What subscribers hear: parsed socket events, and `connected` each time the socket is (back) up. */
export interface RealtimeEvents {
  alerts: AlertRecord[];
  /** An alert was acknowledged or resolved (by anyone assigned, or its episode ended). */
  lifecycle: AlertLifecycle;
  health: HealthRecord;
  /** The board's coalesced readings (only while `watchBoard(true)`): each device's newest of the last second. */
  board: HealthRecord[];
  /** The user gained or lost a device (a care circle change): whoever shows devices fetches them again. */
  devicesChanged: undefined;
  /**
   * The socket is live, the first time or again. Anything sent before is lost: whoever fetched
   * data earlier refetches what may have been missed. The first time counts too: a page fetches
   * while the socket is still connecting, and an alert raised in between would never show.
   */
  connected: undefined;
}
type EventName = keyof RealtimeEvents;
type Listener<K extends EventName> = (value: RealtimeEvents[K]) => void;

const alertsPayload = z.array(alertRecord);

const listeners: { [K in EventName]: Set<Listener<K>> } = {
  alerts: new Set(),
  lifecycle: new Set(),
  health: new Set(),
  board: new Set(),
  devicesChanged: new Set(),
  connected: new Set(),
};
const statusListeners = new Set<() => void>();

let current: { socket: Socket; userId: string } | null = null;
let status: RealtimeStatus = 'offline';
/** When the socket last stopped being live (lost, or its first attempt failed); null while live or not started. */
let downSince: number | null = null;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let refusals = 0;
/** Boards on screen: while any, the socket takes coalesced `boardUpdate` batches instead of every reading. */
let boardWatchers = 0;

function emit<K extends EventName>(event: K, value: RealtimeEvents[K]): void {
  for (const listener of listeners[event]) listener(value);
}

/** `down`: live data has stopped (a lost connection, a failed attempt); it counts from the first such moment. */
function setStatus(next: RealtimeStatus, down = next === 'reconnecting'): void {
  const nextDownSince = down ? (downSince ?? Date.now()) : null;
  if (status === next && downSince === nextDownSince) return;
  status = next;
  downSince = nextDownSince;
  for (const listener of statusListeners) listener();
}

/** Listen to one kind of event; returns the unsubscribe. */
export function onRealtime<K extends EventName>(event: K, listener: Listener<K>): () => void {
  listeners[event].add(listener);
  return () => {
    listeners[event].delete(listener);
  };
}

export const getRealtimeStatus = (): RealtimeStatus => status;
export const getRealtimeDownSince = (): number | null => downSince;

/**
 * Opens the one socket of this tab for `userId` (same origin, `auth: {token}` read afresh on every
 * attempt so a refreshed token is used). A handshake refused for an expired token gets a new
 * token through the API client's refresh and tries again; a refused refresh ends the session.
 */
export function connectRealtime(userId: string): void {
  if (current?.userId === userId) return;
  disconnectRealtime();
  let sentToken = '';
  let connectedBefore = false;
  const socket = io({
    ...SOCKET_OPTIONS,
    // A socket of its own, never a cached manager of a previous user's session.
    forceNew: true,
    auth: (callback) => {
      sentToken = getAccessToken() ?? '';
      callback({ token: sentToken });
    },
  });
  socket.on('connect', () => {
    refusals = 0;
    socket.emit(SOCKET_EVENTS.registerUser, userId);
    if (boardWatchers > 0) socket.emit(SOCKET_EVENTS.watchBoard, true);
    setStatus('connected');
    connectedBefore = true;
    emit('connected', undefined);
  });
  socket.on('disconnect', () => {
    setStatus('reconnecting');
    // The server closed it (restart, shutdown): Socket.IO does not come back by itself then.
    if (!socket.active) scheduleConnect(socket);
  });
  socket.on('connect_error', () => {
    // A first attempt that fails is as much an outage as a lost connection.
    setStatus(connectedBefore ? 'reconnecting' : 'connecting', true);
    // Inactive after an error means the server refused the handshake (no or expired token).
    if (!socket.active) void renewAndRetry(socket, sentToken);
  });
  socket.on(SOCKET_EVENTS.alertsUpdate, (payload: unknown) => {
    const parsed = alertsPayload.safeParse(payload);
    if (parsed.success) emit('alerts', parsed.data);
    else console.warn('Ignored a malformed alertsUpdate event', parsed.error.issues);
  });
  socket.on(SOCKET_EVENTS.alertLifecycleUpdate, (payload: unknown) => {
    const parsed = alertLifecycle.safeParse(payload);
    if (parsed.success) emit('lifecycle', parsed.data);
    else console.warn('Ignored a malformed alertLifecycleUpdate event', parsed.error.issues);
  });
  socket.on(SOCKET_EVENTS.healthDataUpdate, (payload: unknown) => {
    const parsed = healthRecord.safeParse(payload);
    if (parsed.success) emit('health', parsed.data);
    else console.warn('Ignored a malformed healthDataUpdate event', parsed.error.issues);
  });
  socket.on(SOCKET_EVENTS.boardUpdate, (payload: unknown) => {
    const parsed = boardUpdatePayload.safeParse(payload);
    if (parsed.success) emit('board', parsed.data);
    else console.warn('Ignored a malformed boardUpdate event', parsed.error.issues);
  });
  socket.on(SOCKET_EVENTS.devicesChanged, () => emit('devicesChanged', undefined));
  current = { socket, userId };
  setStatus('connecting');
}

/**
 * A board is on screen until the returned function is called: the socket asks for coalesced
 * batches (`board` events) while at least one is, and for every reading again after the last.
 */
export function watchBoard(): () => void {
  boardWatchers += 1;
  if (boardWatchers === 1) current?.socket.emit(SOCKET_EVENTS.watchBoard, true);
  return () => {
    boardWatchers -= 1;
    if (boardWatchers === 0) current?.socket.emit(SOCKET_EVENTS.watchBoard, false);
  };
}

/** Closes the socket (sign-out, leaving the user area). */
export function disconnectRealtime(): void {
  clearTimeout(retryTimer);
  refusals = 0;
  const socket = current?.socket;
  current = null;
  socket?.removeAllListeners();
  socket?.disconnect();
  setStatus('offline');
}

async function renewAndRetry(socket: Socket, rejected: string): Promise<void> {
  let token: string | null;
  try {
    token = await refreshAccessToken(rejected);
  } catch {
    // The server is busy or failing: the session may still be fine, so try again later.
    token = getAccessToken();
  }
  if (token !== null) scheduleConnect(socket);
}

/** Tries again after the spec's delays, doubling from 1 s up to 5 s while refusals continue. */
function scheduleConnect(socket: Socket): void {
  clearTimeout(retryTimer);
  const delay = Math.min(
    SOCKET_OPTIONS.reconnectionDelay * 2 ** refusals,
    SOCKET_OPTIONS.reconnectionDelayMax,
  );
  refusals += 1;
  retryTimer = setTimeout(() => {
    if (current?.socket === socket && !socket.connected) socket.connect();
  }, delay);
}

/** Keeps the socket open while `userId` is signed in; closes it on sign-out or unmount. */
export function useRealtimeConnection(userId: string | null): void {
  useEffect(() => {
    if (!userId) return;
    connectRealtime(userId);
    return disconnectRealtime;
  }, [userId]);
}

/** Calls the latest `handler` for every `event` while the component is mounted. */
export function useRealtimeEvent<K extends EventName>(event: K, handler: Listener<K>): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => onRealtime(event, (value) => latest.current(value)), [event]);
}

const subscribeStatus = (onChange: () => void) => {
  statusListeners.add(onChange);
  return () => {
    statusListeners.delete(onChange);
  };
};

/** The connection state, for a "Live" / "Reconnecting…" indicator. */
export function useRealtimeStatus(): RealtimeStatus {
  return useSyncExternalStore(subscribeStatus, getRealtimeStatus, getRealtimeStatus);
}

/** Since when live data has stopped (ms since the epoch), or null while it flows (or before it started). */
export function useRealtimeDownSince(): number | null {
  return useSyncExternalStore(subscribeStatus, getRealtimeDownSince, getRealtimeDownSince);
}
