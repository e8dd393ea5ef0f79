import { type AlertRecord, alertTypeLabel, PRIORITY_LABELS } from '@vitalwatch/shared';
import type { OutgoingMail } from './mailer.ts';

export interface Recipient {
  email: string;
  fullName: string;
}

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * One alert for one person: what happened, on which device, when, and where to look. An escalated
 * one (high priority, nobody acknowledged it yet) says so and goes out whatever the opt-in.
 */
export function alertMail(
  alert: AlertRecord,
  recipient: Recipient,
  alertsUrl: string,
  escalated = false,
): OutgoingMail {
  // As the app writes dates (en-US, month by name), in UTC: the recipient's zone is not known here.
  const when = `${new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
  }).format(new Date(alert.createdAt))} UTC`;
  const urgent = alert.priority === 'high';
  const facts: Array<[string, string]> = [
    ['Device', alert.deviceName],
    ['Alert', alertTypeLabel(alert.alertType)],
    ['Priority', PRIORITY_LABELS[alert.priority]],
    ['Time', when],
  ];
  const why = escalated
    ? 'You receive this email because this high-priority alert has not been acknowledged yet.'
    : 'You receive this email because alert emails are turned on in your VitalWatch profile.';
  const title = escalated ? `Not acknowledged yet: ${alert.alertTitle}` : alert.alertTitle;
  const text = [
    `Hello ${recipient.fullName},`,
    '',
    title,
    alert.alertMessage,
    '',
    ...facts.map(([k, v]) => `${k}: ${v}`),
    '',
    `View your alerts: ${alertsUrl}`,
    '',
    why,
  ].join('\n');
  const html = `<!doctype html>
<html><body style="font-family:sans-serif;color:#111">
<p>Hello ${escapeHtml(recipient.fullName)},</p>
<h2 style="margin:0 0 8px;color:${urgent ? '#b91c1c' : '#0f766e'}">${escapeHtml(title)}</h2>
<p>${escapeHtml(alert.alertMessage)}</p>
<table>${facts.map(([k, v]) => `<tr><th align="left">${k}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</table>
<p><a href="${escapeHtml(alertsUrl)}">View your alerts</a></p>
<p style="color:#666;font-size:12px">${why}</p>
</body></html>`;
  return {
    to: recipient.email,
    subject: `VitalWatch alert: ${title} (${alert.deviceName})`,
    text,
    html,
    headers: { 'X-VitalWatch-Alert-Id': alert._id, ...(urgent ? { 'X-Priority': '1' } : {}) },
  };
}
