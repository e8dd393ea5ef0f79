import type { AlertRecord } from '@vitalwatch/shared';
import type { StoredAlert, VisibleAlert } from './repository.ts';

/** `createdAt` is when it happened (the reading or event time), so lists and live updates agree. */
export const presentAlert = (a: VisibleAlert): AlertRecord => ({
  _id: a.id,
  device: a.deviceId,
  deviceName: a.deviceName,
  alertType: a.alertType,
  alertTitle: a.alertTitle,
  alertMessage: a.alertMessage,
  createdAt: a.recordedAt.toISOString(),
  isRead: a.isRead,
});

/** A just-stored alert: nobody has read it yet. */
export const presentNewAlert = (a: StoredAlert, deviceName: string): AlertRecord =>
  presentAlert({ ...a, deviceName, isRead: false });
