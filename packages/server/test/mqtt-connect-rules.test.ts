import { connect, createServer, Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { checkProtocolLevel } from '../src/mqtt/protocol-level.ts';
import { userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets } from './helpers.ts';
import { brokerUrl, useMqttApp } from './mqtt-helpers.ts';

/** An MQTT string: two-byte length, then the UTF-8 bytes. */
const mqttString = (s: string) => {
  const bytes = Buffer.from(s, 'utf8');
  return Buffer.concat([Buffer.from([bytes.length >> 8, bytes.length & 0xff]), bytes]);
};

/** A CONNECT packet built by hand, so that levels and flags a client library refuses can be sent. */
function connectPacket(p: {
  level: number;
  clientId: string;
  cleanSession: boolean;
  username?: string;
  password?: string;
}): Buffer {
  const flags =
    (p.username !== undefined ? 0x80 : 0) |
    (p.password !== undefined ? 0x40 : 0) |
    (p.cleanSession ? 0x02 : 0);
  const body = Buffer.concat([
    mqttString(p.level === 3 ? 'MQIsdp' : 'MQTT'),
    Buffer.from([p.level, flags, 0, 30]),
    mqttString(p.clientId),
    ...(p.username !== undefined ? [mqttString(p.username)] : []),
    ...(p.password !== undefined ? [mqttString(p.password)] : []),
  ]);
  expect(body.length).toBeLessThan(128);
  return Buffer.concat([Buffer.from([0x10, body.length]), body]);
}

/**
 * What the broker answers: its bytes up to the CONNACK and whether it then closed the connection.
 * An accepted CONNECT (return code 0) is not waited on for a close; a refusal is.
 */
function exchange(port: number, chunks: Buffer[]) {
  return new Promise<{ bytes: Buffer; closedByBroker: boolean }>((resolve, reject) => {
    const received: Buffer[] = [];
    const socket: Socket = connect(port, '127.0.0.1', () => {
      // Written one chunk per turn of the event loop, so the broker sees them arrive apart.
      void chunks.reduce(
        (prev, chunk) =>
          prev.then(() => new Promise<void>((done) => socket.write(chunk, () => setImmediate(done)))),
        Promise.resolve(),
      );
    });
    const finish = (closedByBroker: boolean) => resolve({ bytes: Buffer.concat(received), closedByBroker });
    socket.on('data', (data) => {
      received.push(data);
      const bytes = Buffer.concat(received);
      if (bytes.length >= 4 && bytes[3] === 0) {
        socket.destroy();
        finish(false);
      }
    });
    socket.on('end', () => socket.destroy());
    socket.on('close', () => finish(true));
    socket.on('error', reject);
  });
}

const connack = (returnCode: number) => Buffer.from([0x20, 0x02, 0x00, returnCode]);

// PGlite only: these are rules of the MQTT edge, which is the same for both databases.
const pglite = dbTargets().filter((t) => t.name === 'pglite');

describe.each(pglite)('MQTT 3.1.1 CONNECT rules of the embedded broker on $name', (target) => {
  const built = useMqttApp(target);
  const port = () => Number(new URL(brokerUrl(built())).port);
  const device = async () => {
    const { device } = await userWithDevice(built(), await createAdmin(built()));
    return { username: device._id, password: device.apiAuthCode };
  };

  it('answers an empty client id without a clean session with 0x02, then closes [MQTT-3.1.3-8]', async () => {
    const credentials = await device();
    const persistent = await exchange(port(), [
      connectPacket({ level: 4, clientId: '', cleanSession: false, ...credentials }),
    ]);
    expect(persistent).toEqual({ bytes: connack(2), closedByBroker: true });
    // With a clean session the server assigns an id and accepts [MQTT-3.1.3-6].
    const clean = await exchange(port(), [
      connectPacket({ level: 4, clientId: '', cleanSession: true, ...credentials }),
    ]);
    expect(clean).toEqual({ bytes: connack(0), closedByBroker: false });
  });

  it('answers an unsupported protocol level with 0x01, then closes [MQTT-3.1.2-2]', async () => {
    const credentials = await device();
    for (const level of [0, 2, 5, 6, 0x7f]) {
      const refused = await exchange(port(), [
        connectPacket({ level, clientId: 'device-1', cleanSession: true, ...credentials }),
      ]);
      expect(refused, `level ${level}`).toEqual({ bytes: connack(1), closedByBroker: true });
    }
    // 3.1.1 (level 4) and 3.1 (level 3) are served.
    for (const level of [3, 4]) {
      const accepted = await exchange(port(), [
        connectPacket({ level, clientId: 'device-1', cleanSession: true, ...credentials }),
      ]);
      expect(accepted, `level ${level}`).toEqual({ bytes: connack(0), closedByBroker: false });
    }
  });

  it('reads a CONNECT that arrives a few bytes at a time', async () => {
    const packet = connectPacket({ level: 4, clientId: 'device-2', cleanSession: true, ...(await device()) });
    const accepted = await exchange(port(), [
      packet.subarray(0, 1),
      packet.subarray(1, 5),
      packet.subarray(5),
    ]);
    expect(accepted).toEqual({ bytes: connack(0), closedByBroker: false });
    const refused = await exchange(port(), [
      Buffer.from([0x10, 10, 0]),
      Buffer.from([4, 0x4d, 0x51, 0x54, 0x54]),
      Buffer.from([6, 0x02, 0, 30, 0, 0]),
    ]);
    expect(refused).toEqual({ bytes: connack(1), closedByBroker: true });
  });
});

describe('the protocol-level check before aedes', () => {
  it('closes a connection reset before its CONNECT is read, without an unhandled error', async () => {
    const handed: Socket[] = [];
    const accepted = new Promise<Socket>((resolve) => {
      const server = createServer((socket) => {
        resolve(socket);
        checkProtocolLevel(socket, 30_000, (checked) => handed.push(checked));
        socket.once('close', () => server.close());
      }).listen(0, '127.0.0.1', () => {
        const address = server.address();
        if (address && typeof address === 'object') client.connect(address.port, '127.0.0.1');
      });
    });
    const client = new Socket();
    const serverSide = await accepted;
    const read = new Promise<void>((resolve) => serverSide.once('readable', () => resolve()));
    const closed = new Promise<void>((resolve) => serverSide.once('close', () => resolve()));
    client.write(Buffer.from([0x10, 10]));
    await read;
    client.resetAndDestroy();
    await closed;
    expect(handed).toEqual([]);
  });
});
