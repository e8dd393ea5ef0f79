import { z } from 'zod';
import type { AlertLifecycle, AlertRecord } from './alert.ts';
import type { HealthRecord } from './health.ts';

/** Socket.IO event names of spec section 7 ("Real-time socket"). */
export const SOCKET_EVENTS = {
  registerUser: 'register-user',
  healthDataUpdate: 'healthDataUpdate',
  alertsUpdate: 'alertsUpdate',
  alertLifecycleUpdate: 'alertLifecycleUpdate',
  boardUpdate: 'boardUpdate',
  devicesChanged: 'devicesChanged',
  watchBoard: 'watch-board',
} as const;

/** Room of one user's sockets; every event about a device goes to the rooms of its users. */
export const userRoom = (userId: string) => `user:${userId}`;
/**
 * Room of a user's sockets that show the board: they get readings coalesced in `boardUpdate`
 * batches instead of one `healthDataUpdate` per reading.
 */
export const boardRoom = (userId: string) => `board:${userId}`;

/** Handshake auth: the client connects with `io(url, { auth: { token: accessToken } })`. */
export const socketAuth = z.object({ token: z.string().min(1).max(4096) });

/** `register-user` carries the signed-in user's id (spec: "Emits register-user with the user id"). */
export const registerUserPayload = z.string().min(1).max(64);

/** Answer to `register-user`, as an acknowledgement when the client asks for one. */
export const socketAck = z.object({ success: z.boolean(), message: z.string() });
export type SocketAck = z.infer<typeof socketAck>;

export const SOCKET_MESSAGES = {
  registered: 'Registered for live updates',
  registerOwnIdOnly: 'You can only register your own user id',
  registerInvalid: 'register-user needs your user id',
  watchingBoard: 'Board updates every second',
  notWatchingBoard: 'Every reading as it arrives',
  watchBoardInvalid: 'watch-board needs true or false',
} as const;

export interface ServerToClientEvents {
  /** One stored health record, with `device` and `createdAt` (its recording time). */
  healthDataUpdate: (record: HealthRecord) => void;
  /** New alerts, newest last. */
  alertsUpdate: (alerts: AlertRecord[]) => void;
  /** An alert was acknowledged or resolved (by a carer, or its episode ended). */
  alertLifecycleUpdate: (alert: AlertLifecycle) => void;
  /** The board's live readings: the newest record of each device that sent any in the last second. */
  boardUpdate: (records: HealthRecord[]) => void;
  /** The user gained or lost a device (care circle): fetch the devices again. */
  devicesChanged: () => void;
  /** Sent when `register-user` was refused and the client asked for no acknowledgement. */
  'register-user-error': (result: SocketAck) => void;
}

export interface ClientToServerEvents {
  'register-user': (userId: string, ack?: (result: SocketAck) => void) => void;
  /** `true`: this socket shows the board (coalesced `boardUpdate` batches); `false`: back to every reading. */
  'watch-board': (on: boolean, ack?: (result: SocketAck) => void) => void;
}

/** MQTT topics a device publishes to (QoS 1, JSON bodies of the HTTP ingest schemas). */
export const DEVICE_TOPIC_KINDS = ['health', 'alert'] as const;
export type DeviceTopicKind = (typeof DEVICE_TOPIC_KINDS)[number];
export const deviceTopic = (deviceId: string, kind: DeviceTopicKind) => `devices/${deviceId}/${kind}`;

/** What the server subscribes to on an external broker: every node shares the device traffic. */
export const MQTT_SHARED_SUBSCRIPTION = '$share/vitalwatch/devices/+/+';
