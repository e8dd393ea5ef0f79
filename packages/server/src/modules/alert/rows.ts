import { alerts } from '../../db/schema.ts';
import type { IsoTime } from '../../lib/iso-time.ts';

/** The shapes of stored alerts that the engine (writes) and the carers' reads share. */

export type StoredAlert = typeof alerts.$inferSelect;

/** The columns of an alert's shared state (what `presentLifecycle` shows). */
export type LifecycleRow = Pick<
  StoredAlert,
  | 'id'
  | 'deviceId'
  | 'priority'
  | 'status'
  | 'acknowledgedAt'
  | 'acknowledgedByName'
  | 'ackNote'
  | 'resolvedAt'
  | 'resolvedByName'
  | 'resolveNote'
>;

/** `LifecycleRow` as a reply shows it: its times dates, or text PostgreSQL wrote (`isoTime`). */
export type LifecycleView = Omit<LifecycleRow, 'acknowledgedAt' | 'resolvedAt'> & {
  acknowledgedAt: IsoTime | null;
  resolvedAt: IsoTime | null;
};

export const lifecycleColumns = {
  id: alerts.id,
  deviceId: alerts.deviceId,
  priority: alerts.priority,
  status: alerts.status,
  acknowledgedAt: alerts.acknowledgedAt,
  acknowledgedByName: alerts.acknowledgedByName,
  ackNote: alerts.ackNote,
  resolvedAt: alerts.resolvedAt,
  resolvedByName: alerts.resolvedByName,
  resolveNote: alerts.resolveNote,
};
