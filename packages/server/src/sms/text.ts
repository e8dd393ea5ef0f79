import { type AlertRecord, cutToUnits, smsEncoding, smsRoom, smsUnits } from '@vitalwatch/shared';

/**
 * An alert as a short SMS: priority, title, device and the link the alert e-mails carry, the link
 * always whole. In the GSM 7-bit alphabet it fits one message (160); a title or name outside it
 * (’, a non-Latin script, an emoji) sends the text as UCS-2, kept to two parts (134 units), not
 * one (70), which would leave the title almost no room beside the link. The device name takes at
 * most a third of what the link leaves, the title the rest, each cut with an ellipsis.
 */
export function alertSms(alert: AlertRecord, link: string, escalated: boolean): string {
  const head = `VitalWatch ${alert.priority.toUpperCase()}${escalated ? ' (not acknowledged)' : ''}: `;
  const tail = ` ${link}`;
  const encoding = smsEncoding(`${head}${alert.alertTitle} on ${alert.deviceName}.${tail}`);
  const room = smsRoom(encoding, encoding === 'GSM-7' ? 1 : 2) - smsUnits(`${head}${tail} on .`, encoding);
  const device = cutToUnits(alert.deviceName, Math.max(12, Math.floor(room / 3)), encoding);
  const title = cutToUnits(alert.alertTitle, Math.max(12, room - smsUnits(device, encoding)), encoding);
  return `${head}${title} on ${device}.${tail}`;
}
