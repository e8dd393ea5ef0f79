import type { AlertRecord } from '@vitalwatch/shared';

/** One SMS segment of GSM-7 text; a longer text is billed and delivered as several. */
export const SMS_SEGMENT = 160;

const cut = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;

/**
 * An alert as one SMS: priority, title, device and the link the alert e-mails carry, within 160
 * characters where the link leaves room: the device name takes at most a third of what the link
 * leaves, the title the rest, each cut with an ellipsis.
 */
export function alertSms(alert: AlertRecord, link: string, escalated: boolean): string {
  const head = `VitalWatch ${alert.priority.toUpperCase()}${escalated ? ' (not acknowledged)' : ''}: `;
  const tail = ` ${link}`;
  const room = SMS_SEGMENT - head.length - tail.length;
  const device = cut(alert.deviceName, Math.max(12, Math.floor(room / 3)));
  const title = cut(alert.alertTitle, Math.max(12, room - device.length - ' on .'.length));
  return `${head}${title} on ${device}.${tail}`;
}
