import type { Socket } from 'node:net';
import type { ConnectPacket } from 'aedes';

/** MQTT 3.1 (3) and 3.1.1 (4); aedes does not speak MQTT 5. */
const SUPPORTED_LEVELS: ReadonlySet<number> = new Set([3, 4]);
/** CONNACK, return code 0x01: unacceptable protocol version. */
const CONNACK_UNACCEPTABLE_PROTOCOL = Buffer.from([0x20, 0x02, 0x00, 0x01]);
/** CONNACK return code 0x02: identifier rejected. */
export const IDENTIFIER_REJECTED = 2;
/** How long a refused client has to read its CONNACK and close before its socket is destroyed. */
const CLOSE_GRACE_MS = 5_000;

/**
 * The protocol level of the CONNECT at the start of `bytes` (bridge flag 0x80 removed), null when
 * more bytes are needed to tell, or 'other' when it is not a CONNECT of MQTT or MQIsdp (aedes
 * refuses those itself).
 */
export function connectProtocolLevel(bytes: Buffer): number | null | 'other' {
  if (bytes.length === 0) return null;
  if (bytes[0] !== 0x10) return 'other';
  // The remaining length: 1 to 4 bytes, 7 bits each, the high bit saying another follows.
  let pos = 1;
  for (;;) {
    const byte = bytes[pos];
    if (byte === undefined) return null;
    pos++;
    if ((byte & 0x80) === 0) break;
    if (pos > 4) return 'other';
  }
  if (bytes.length < pos + 2) return null;
  const nameLength = bytes.readUInt16BE(pos);
  const name = bytes.subarray(pos + 2, pos + 2 + nameLength);
  const level = bytes[pos + 2 + nameLength];
  if (name.length < nameLength) return nameLength > 6 ? 'other' : null;
  const protocol = name.toString('latin1');
  if (protocol !== 'MQTT' && protocol !== 'MQIsdp') return 'other';
  if (level === undefined) return null;
  return level & 0x7f;
}

/**
 * Reads a new connection's first bytes up to the CONNECT's protocol level, before aedes sees them:
 * its parser drops a level other than 3, 4 or 5 without any CONNACK. An unsupported level gets
 * CONNACK 0x01 and the connection is closed [MQTT-3.1.2-2]; otherwise the bytes are put back and
 * `handle` gets the socket. A socket that sends no such bytes within `timeoutMs` is destroyed.
 */
export function checkProtocolLevel(
  socket: Socket,
  timeoutMs: number,
  handle: (socket: Socket) => void,
): void {
  let received = Buffer.alloc(0);
  const timer = setTimeout(() => socket.destroy(), timeoutMs);
  // A reset before aedes has the socket must not be an unhandled 'error' (it would end the process).
  const drop = () => socket.destroy();
  socket.on('error', drop);
  const stop = () => {
    clearTimeout(timer);
    socket.off('readable', onReadable);
    socket.off('close', stop);
  };
  function onReadable() {
    for (let chunk: Buffer | null = socket.read(); chunk !== null; chunk = socket.read())
      received = Buffer.concat([received, chunk]);
    const level = connectProtocolLevel(received);
    if (level === null) return;
    stop();
    if (level === 'other' || SUPPORTED_LEVELS.has(level)) {
      socket.off('error', drop);
      socket.unshift(received);
      handle(socket);
      return;
    }
    socket.end(CONNACK_UNACCEPTABLE_PROTOCOL);
    // Whatever else the client sends is read and dropped, so closing does not reset the connection.
    socket.resume();
    socket.setTimeout(CLOSE_GRACE_MS, () => socket.destroy());
  }
  socket.on('readable', onReadable);
  socket.on('close', stop);
}

/**
 * Whether a CONNECT's client id must be rejected (CONNACK 0x02): an empty one asks the server to
 * assign an id, which 3.1.1 allows only with a clean session [MQTT-3.1.3-8] and 3.1 never.
 */
export const rejectsClientId = (packet: ConnectPacket): boolean =>
  packet.clientId === '' && (!packet.clean || packet.protocolVersion === 3);
