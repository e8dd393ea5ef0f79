import { createConnection, type Socket } from 'node:net';
import mqttPacket, { type IPublishPacket, type Packet } from 'mqtt-packet';

/** How long connecting (TCP + CONNACK) may take before the attempt counts as failed. */
const CONNECT_TIMEOUT_MS = 10_000;
/** A lost connection is made again after this long, and unacknowledged publishes are resent. */
const RECONNECT_MS = 1000;

interface InFlight {
  packet: IPublishPacket;
  resolve(): void;
  reject(err: Error): void;
}

/**
 * The benchmark's device: an MQTT 3.1.1 client that does what a wearable does (CONNECT with its
 * id and code, QoS 1 PUBLISH, wait for each PUBACK, reconnect and resend what was not
 * acknowledged) on mqtt-packet, the codec mqtt.js and aedes are built on. mqtt.js spent about
 * 16 µs of CPU a publish (its stores, timers, and promise and callback layers) on the same two
 * cores as the server it measured; this spends about 10 µs with the readings' JSON, so more of
 * the MQTT figure is the server's. Publishes of one event-loop turn leave in one write, as with mqtt.js.
 */
export class BenchDevice {
  private socket: Socket | null = null;
  private readonly inFlight = new Map<number, InFlight>();
  private nextId = 1;
  private corked = false;
  private ended = false;

  private readonly url: URL;
  private readonly username: string;
  private readonly password: string;

  private constructor(url: URL, username: string, password: string) {
    this.url = url;
    this.username = username;
    this.password = password;
  }

  /** Connect to `url` (mqtt://host:port) as a device; rejects on a refused or missing CONNACK. */
  static async connect(url: string, username: string, password: string): Promise<BenchDevice> {
    const device = new BenchDevice(new URL(url), username, password);
    await device.open();
    return device;
  }

  /** QoS 1 publish; resolves on its PUBACK (after reconnecting if need be), rejects once ended. */
  publish(topic: string, payload: string): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.ended) return reject(new Error('device ended'));
      const messageId = this.nextId;
      this.nextId = this.nextId === 65535 ? 1 : this.nextId + 1;
      const packet: IPublishPacket = {
        cmd: 'publish',
        topic,
        payload,
        qos: 1,
        messageId,
        retain: false,
        dup: false,
      };
      this.inFlight.set(messageId, { packet, resolve, reject });
      if (this.socket) this.send(this.socket, packet);
    });
  }

  /** DISCONNECT and close; what is still unacknowledged is rejected. */
  async end(): Promise<void> {
    this.ended = true;
    this.failAll(new Error('device ended'));
    const socket = this.socket;
    if (!socket || socket.destroyed) return;
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      socket.end(mqttPacket.generate({ cmd: 'disconnect' }));
    });
  }

  private open(): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = createConnection({ host: this.url.hostname, port: Number(this.url.port) || 1883 });
      socket.setNoDelay(true);
      const parser = mqttPacket.parser({ protocolVersion: 4 });
      let connected = false;
      const timer = setTimeout(() => socket.destroy(new Error('no CONNACK in time')), CONNECT_TIMEOUT_MS);
      socket.on('data', (chunk) => parser.parse(chunk));
      parser.on('packet', (packet: Packet) => {
        if (connected) {
          if (packet.cmd === 'puback' && packet.messageId !== undefined) this.acknowledged(packet.messageId);
          return;
        }
        clearTimeout(timer);
        if (packet.cmd !== 'connack' || packet.returnCode !== 0) {
          socket.destroy();
          return reject(
            new Error(`CONNECT refused (${packet.cmd} ${'returnCode' in packet ? packet.returnCode : ''})`),
          );
        }
        connected = true;
        this.socket = socket;
        // What the last connection left unacknowledged goes again, marked as a resend.
        for (const { packet: unacked } of this.inFlight.values())
          this.send(socket, { ...unacked, dup: true });
        resolve();
      });
      socket.on('error', (err) => {
        if (!connected) reject(err);
      });
      socket.on('close', () => {
        clearTimeout(timer);
        if (this.socket === socket) this.socket = null;
        if (connected && !this.ended) this.reconnectLater();
      });
      socket.write(
        mqttPacket.generate({
          cmd: 'connect',
          protocolId: 'MQTT',
          protocolVersion: 4,
          clientId: this.username,
          clean: true,
          keepalive: 60,
          username: this.username,
          password: Buffer.from(this.password),
        }),
      );
    });
  }

  private reconnectLater(): void {
    setTimeout(() => {
      if (this.ended) return;
      this.open().catch(() => this.reconnectLater());
    }, RECONNECT_MS);
  }

  private send(socket: Socket, packet: IPublishPacket): void {
    if (!this.corked) {
      this.corked = true;
      socket.cork();
      process.nextTick(() => {
        this.corked = false;
        socket.uncork();
      });
    }
    socket.write(mqttPacket.generate(packet));
  }

  private acknowledged(messageId: number): void {
    const entry = this.inFlight.get(messageId);
    this.inFlight.delete(messageId);
    entry?.resolve();
  }

  private failAll(err: Error): void {
    for (const { reject } of this.inFlight.values()) reject(err);
    this.inFlight.clear();
  }
}
