import {
  type AlertEvent,
  alertIngestBody,
  DEVICE_TOPIC_KINDS,
  type DeviceTopicKind,
  type HealthReading,
  healthIngestBody,
} from '@vitalwatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import { type ErrorCode, isDomainError } from '../errors.ts';

/** Largest payload read: a full batch of 500 readings is about 75 KB. */
export const MAX_PAYLOAD_BYTES = 256 * 1024;

/** What the MQTT side needs from ingestion; `ctx.ingest` provides it. */
export interface DeviceIngest<Device> {
  /** `'wait'`: when the ingest queue is full, wait for room (the PUBACK comes later) rather than be refused. */
  ingestHealth(
    device: Device,
    readings: HealthReading[],
    whenFull: 'wait',
  ): Promise<{ accepted: number; duplicates: number }>;
  ingestAlerts(device: Device, events: AlertEvent[]): Promise<{ accepted: number; duplicates: number }>;
}

/** Counters since start; exposed as `ctx.mqtt.stats`. */
export interface MqttStats {
  /** Messages on device topics that reached ingestion (or were found malformed). */
  received: number;
  /** Readings and events stored. */
  accepted: number;
  /** Readings and events already stored under the same messageId (retries). */
  duplicates: number;
  /** Payloads that were not valid JSON or failed the schema: acknowledged, logged, not stored. */
  malformed: number;
  /** Publishes outside the device's own topics, or from a device that lost its right to ingest. */
  refused: number;
  /** Ingestion failures (database down, …): not acknowledged, the device retries. */
  failed: number;
}

export const emptyStats = (): MqttStats => ({
  received: 0,
  accepted: 0,
  duplicates: 0,
  malformed: 0,
  refused: 0,
  failed: 0,
});

const TOPIC = new RegExp(`^devices/([^/]{1,64})/(${DEVICE_TOPIC_KINDS.join('|')})$`);

/** `devices/<deviceId>/health|alert`, or null for any other topic. */
export function parseDeviceTopic(topic: string): { deviceId: string; kind: DeviceTopicKind } | null {
  const match = TOPIC.exec(topic);
  const kind = DEVICE_TOPIC_KINDS.find((k) => k === match?.[2]);
  if (!match || !kind) return null;
  return { deviceId: match[1]!, kind };
}

type ParsedPayload =
  | { ok: true; kind: 'health'; readings: HealthReading[] }
  | { ok: true; kind: 'alert'; events: AlertEvent[] }
  | { ok: false; reason: string };

/** The first schema issues, as one line for the log. */
function describe(issues: { path: PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 3)
    .map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}

/** JSON through the same schemas as HTTP ingestion: one item or a batch. */
export function parseDevicePayload(kind: DeviceTopicKind, payload: Buffer): ParsedPayload {
  if (payload.length > MAX_PAYLOAD_BYTES)
    return { ok: false, reason: `payload over ${MAX_PAYLOAD_BYTES} bytes` };
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    return { ok: false, reason: 'payload is not JSON' };
  }
  if (kind === 'health') {
    const parsed = healthIngestBody.safeParse(json);
    if (!parsed.success) return { ok: false, reason: describe(parsed.error.issues) };
    return { ok: true, kind, readings: Array.isArray(parsed.data) ? parsed.data : [parsed.data] };
  }
  const parsed = alertIngestBody.safeParse(json);
  if (!parsed.success) return { ok: false, reason: describe(parsed.error.issues) };
  return { ok: true, kind, events: Array.isArray(parsed.data) ? parsed.data : [parsed.data] };
}

/**
 * `ack`: stored (or a duplicate), or malformed. A malformed payload is acknowledged and dropped
 * on purpose: resending the same bytes can never succeed, and an unacknowledged QoS 1 message
 * would be resent forever. It is logged and counted instead.
 * `refuse`: the device may not ingest (disabled or deleted since it connected).
 * `retry`: ingestion failed (database down): no acknowledgement, disconnect, the device resends.
 */
export type Outcome = 'ack' | 'refuse' | 'retry';

/** Domain errors that mean the device may not ingest now: the publish is refused. */
const REFUSED = new Set<ErrorCode>(['unknownApiKey', 'deviceInactive', 'deviceNotFound']);
/** Domain errors that the same bytes would meet again: acknowledged and dropped like a malformed payload. */
const DROPPED = new Set<ErrorCode>(['invalidInput']);

/** Parse, authorize, ingest, count: the one path for the embedded broker and the external-broker client. */
export async function handleDeviceMessage<Device>(
  ingest: DeviceIngest<Device>,
  stats: MqttStats,
  log: FastifyBaseLogger,
  target: { deviceId: string; kind: DeviceTopicKind },
  /** The device, checked again per message (it may have been disabled); throws a DomainError. */
  resolveDevice: () => Promise<Device>,
  payload: Buffer,
): Promise<Outcome> {
  const { deviceId, kind } = target;
  stats.received++;
  const parsed = parseDevicePayload(kind, payload);
  if (!parsed.ok) {
    stats.malformed++;
    log.warn({ deviceId, kind, reason: parsed.reason }, 'malformed MQTT payload dropped');
    return 'ack';
  }
  try {
    const device = await resolveDevice();
    const result =
      parsed.kind === 'health'
        ? await ingest.ingestHealth(device, parsed.readings, 'wait')
        : await ingest.ingestAlerts(device, parsed.events);
    stats.accepted += result.accepted;
    stats.duplicates += result.duplicates;
    return 'ack';
  } catch (err) {
    if (isDomainError(err) && REFUSED.has(err.code)) {
      stats.refused++;
      log.warn({ deviceId, reason: err.message }, 'MQTT device may not ingest');
      return 'refuse';
    }
    if (isDomainError(err) && DROPPED.has(err.code)) {
      stats.malformed++;
      log.warn({ deviceId, kind, reason: err.message }, 'MQTT payload rejected by ingestion and dropped');
      return 'ack';
    }
    stats.failed++;
    log.error({ err, deviceId }, 'MQTT ingestion failed; not acknowledged');
    return 'retry';
  }
}
