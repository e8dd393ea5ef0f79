import type { AlertLifecycle, AlertRecord } from '@vitalwatch/shared';
import { type IsoTime, isoText } from '../../lib/iso-time.ts';
import type { VisibleAlert } from './repository.ts';
import type { LifecycleView, StoredAlert } from './rows.ts';

const mark = (at: IsoTime | null, by: string | null, note: string | null) =>
  at ? { at: isoText(at), by, note } : null;

/** The shared state of an alert: priority, status, who acknowledged or resolved it and when. */
export const presentLifecycle = (a: LifecycleView): AlertLifecycle => ({
  _id: a.id,
  device: a.deviceId,
  priority: a.priority,
  status: a.status,
  acknowledged: mark(a.acknowledgedAt, a.acknowledgedByName, a.ackNote),
  resolved: mark(a.resolvedAt, a.resolvedByName, a.resolveNote),
});

/**
 * `createdAt` is when it happened (the reading or event time), so lists and live updates agree;
 * `receivedAt` when the server stored it, the order of what is new to a carer.
 */
export const presentAlert = (a: VisibleAlert): AlertRecord => ({
  ...presentLifecycle(a),
  deviceName: a.deviceName,
  alertType: a.alertType,
  alertTitle: a.alertTitle,
  alertMessage: a.alertMessage,
  createdAt: isoText(a.recordedAt),
  receivedAt: isoText(a.createdAt),
  isRead: a.isRead,
});

/** A just-stored alert: nobody has read it yet. */
export const presentNewAlert = (a: StoredAlert, deviceName: string): AlertRecord =>
  presentAlert({ ...a, deviceName, isRead: false });
