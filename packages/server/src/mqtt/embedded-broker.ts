import { createServer, type Server } from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import { isDomainError } from '../errors.ts';
import { ConnectGuard, type ConnectLimits, remoteAddressOf } from './connect-guard.ts';
import {
  type DeviceIngest,
  handleDeviceMessage,
  type MqttStats,
  parseDeviceTopic,
} from './device-messages.ts';
import { checkProtocolLevel, IDENTIFIER_REJECTED, rejectsClientId } from './protocol-level.ts';

/** What the broker needs from ingestion: device credentials, then the ingest calls. */
export interface DeviceAuthenticator<Device> extends DeviceIngest<Device> {
  /** Resolves to the device, or throws DomainError `unknownApiKey` / `deviceInactive`. */
  authenticateDevice(deviceId: string, apiAuthCode: string): Promise<Device>;
}

export interface EmbeddedBrokerOptions<Device> {
  ingest: DeviceAuthenticator<Device>;
  stats: MqttStats;
  log: FastifyBaseLogger;
  /** Failed-CONNECT counters and the per-address connection cap. */
  limits: ConnectLimits;
  host: string;
  port: number;
  /** When `port` is taken: try the next few ports, then any free one, instead of failing. */
  fallback: boolean;
}

export interface EmbeddedBroker {
  port: number;
  /** Devices connected now. */
  clients(): number;
  close(): Promise<void>;
}

/** How many ports after the preferred one are tried before letting the OS pick one. */
const FALLBACK_TRIES = 10;
/** How long a new connection has to send its CONNECT (aedes' default). */
const CONNECT_TIMEOUT_MS = 30_000;

/**
 * aedes on its own TCP port. A device connects with username = its id and password = its
 * apiAuthCode, may publish only to `devices/<its id>/health|alert`, and may subscribe to nothing.
 * Ingestion runs inside `authorizePublish`: aedes writes the QoS 1 PUBACK only after that callback,
 * so the PUBACK means "committed". A failed ingestion errors the callback, which closes the
 * connection without a PUBACK, and the device resends (its messageId keeps the retry idempotent).
 * A device disabled or deleted while connected is disconnected at its next publish, and its
 * reconnection is refused. Floods of failed CONNECTs are limited per address, without keeping
 * out the devices that logged in before; wrong codes per device id are only reported (ConnectGuard).
 * MQTT 3.1.1 refusals aedes does not make itself: an unsupported protocol level gets CONNACK 0x01
 * (checked before aedes reads the socket), an empty client id without a clean session 0x02.
 */
export async function startEmbeddedBroker<Device>(
  opts: EmbeddedBrokerOptions<Device>,
): Promise<EmbeddedBroker> {
  const { ingest, stats, log } = opts;
  const sessions = new WeakMap<Client, { deviceId: string; apiAuthCode: string }>();
  /** Clients whose CONNECT's id is refused: aedes answers with the authentication's return code. */
  const rejectedIds = new WeakSet<Client>();
  const inFlight = new Set<Promise<unknown>>();
  const guard = new ConnectGuard(opts.limits, log);

  /** Resolves to the CONNACK refusal, or null once the client is a logged-in device. */
  async function authenticateConnect(
    client: Client,
    username: string | undefined,
    password: Buffer | undefined,
  ): Promise<AuthenticateError | null> {
    if (rejectedIds.has(client)) return authError(IDENTIFIER_REJECTED, 'identifier rejected');
    const ip = remoteAddressOf(client);
    const apiAuthCode = password?.toString('utf8');
    const refusal = await guard.refusal(ip, username, apiAuthCode);
    if (refusal) return authError(refusal.returnCode, refusal.message);
    if (!username || !apiAuthCode) {
      await guard.failed(ip, username, apiAuthCode);
      return authError(4, 'username and password required');
    }
    try {
      await ingest.authenticateDevice(username, apiAuthCode);
    } catch (err) {
      // The right code of a disabled device: not a guess, not counted.
      if (isDomainError(err, 'deviceInactive')) return authError(5, err.message);
      if (isDomainError(err, 'unknownApiKey')) {
        await guard.failed(ip, username, apiAuthCode);
        return authError(4, err.message);
      }
      log.error({ err }, 'MQTT device authentication failed');
      return authError(3, 'server unavailable');
    }
    sessions.set(client, { deviceId: username, apiAuthCode });
    guard.succeeded(username, apiAuthCode);
    return null;
  }

  const broker = await Aedes.createBroker({
    // Devices may use their id (a UUID) as client id.
    maxClientsIdLength: 128,
    connectTimeout: CONNECT_TIMEOUT_MS,
    preConnect(client, packet, done) {
      if (rejectsClientId(packet)) rejectedIds.add(client);
      done(null, true);
    },
    authenticate(client, username, password, done) {
      authenticateConnect(client, username, password).then(
        (refusal) => done(refusal, refusal === null),
        (err: unknown) => {
          log.error({ err }, 'MQTT device authentication failed');
          done(authError(3, 'server unavailable'), false);
        },
      );
    },
    authorizePublish(client, packet, done) {
      const session = client ? sessions.get(client) : undefined;
      const target = parseDeviceTopic(packet.topic);
      if (!session || !target || target.deviceId !== session.deviceId) {
        stats.refused++;
        log.warn(
          { deviceId: session?.deviceId, topic: packet.topic },
          'MQTT publish outside own topics refused',
        );
        return done(new Error('not authorized to publish to this topic'));
      }
      // Nothing is kept on the broker: readings live in the database, not as retained messages.
      packet.retain = false;
      const handled = handleDeviceMessage(
        ingest,
        stats,
        log,
        target,
        // Ingestion caches credentials for at most a second and forgets them when an admin
        // changes the device: a device disabled while connected is refused at its next publish.
        () => ingest.authenticateDevice(session.deviceId, session.apiAuthCode),
        typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload,
      ).then(
        (outcome) => done(outcome === 'ack' ? null : new Error(`ingestion: ${outcome}`)),
        (err: unknown) => {
          log.error({ err }, 'MQTT message handling failed');
          done(err instanceof Error ? err : new Error(String(err)));
        },
      );
      inFlight.add(handled);
      void handled.finally(() => inFlight.delete(handled));
    },
    authorizeSubscribe(_client, _subscription, done) {
      done(null, null);
    },
  });
  broker.on('clientError', (client, err) => {
    log.debug({ deviceId: sessions.get(client)?.deviceId, err: err.message }, 'MQTT client error');
  });

  const server = createServer((socket) => {
    if (guard.admit(socket))
      checkProtocolLevel(socket, CONNECT_TIMEOUT_MS, (checked) => broker.handle(checked));
    else socket.destroy();
  });
  let port: number;
  try {
    port = await listenWithFallback(server, opts.port, opts.host, opts.fallback);
  } catch (err) {
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    throw err;
  }
  return {
    port,
    clients: () => broker.connectedClients,
    async close() {
      // Stop accepting first; the server's close completes once the broker has closed its clients.
      const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await serverClosed;
      await Promise.allSettled(inFlight);
    },
  };
}

const authError = (returnCode: 2 | 3 | 4 | 5, message: string): AuthenticateError =>
  Object.assign(new Error(message), { returnCode });

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address();
      resolve(address && typeof address === 'object' ? address.port : port);
    });
  });
}

const isInUse = (err: unknown) => err instanceof Error && 'code' in err && err.code === 'EADDRINUSE';

/** The preferred port; with `fallback`, the next few, then one the OS picks. */
export async function listenWithFallback(
  server: Server,
  port: number,
  host: string,
  fallback: boolean,
): Promise<number> {
  const candidates = fallback
    ? [...Array.from({ length: FALLBACK_TRIES + 1 }, (_, i) => port + i).filter((p) => p <= 65535), 0]
    : [port];
  for (const candidate of candidates) {
    try {
      return await listen(server, candidate, host);
    } catch (err) {
      if (!isInUse(err)) throw err;
    }
  }
  throw new Error(
    `MQTT_PORT ${port} is already in use on ${host}. Stop what uses it, choose another MQTT_PORT, or set MQTT_PORT=0 to turn the embedded broker off.`,
  );
}
