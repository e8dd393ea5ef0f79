import type { AlertLifecycle, AlertRecord, HealthRecord } from '@vitalwatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Audience, EventBus } from './events.ts';

/** What one committed write tells the device's users. */
export interface Publication {
  audience: Audience;
  records: HealthRecord[];
  alerts: AlertRecord[];
  /** Alerts of the device acknowledged or resolved by this write. */
  lifecycle?: AlertLifecycle[];
}

/**
 * Emit committed facts. A failing listener is logged and never reaches the writer: the data is
 * stored and the device has its answer whatever real time or push do with it.
 */
export function publish(events: EventBus, log: FastifyBaseLogger, publications: Publication[]): void {
  const guarded = (emit: () => void, deviceId: string) => {
    try {
      emit();
    } catch (err) {
      log.error({ err, deviceId }, 'event listener failed');
    }
  };
  for (const { audience, records, alerts, lifecycle = [] } of publications) {
    if (records.length > 0) guarded(() => events.emit('health', audience, records), audience.deviceId);
    if (alerts.length > 0) guarded(() => events.emit('alerts', audience, alerts), audience.deviceId);
    if (lifecycle.length > 0) {
      guarded(() => events.emit('alertLifecycle', audience, lifecycle), audience.deviceId);
    }
  }
}
