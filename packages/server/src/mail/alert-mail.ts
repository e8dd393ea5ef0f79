import type { AlertRecord } from '@vitalwatch/shared';
import type { OutgoingMail } from './mailer.ts';

export interface Recipient {
  email: string;
  fullName: string;
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** One alert for one person: what happened, on which device, when, and where to look. */
export function alertMail(alert: AlertRecord, recipient: Recipient, alertsUrl: string): OutgoingMail {
  const when = new Date(alert.createdAt).toUTCString();
  const urgent = alert.alertType === 'FALL' || alert.alertType === 'SOS';
  const facts: Array<[string, string]> = [
    ['Device', alert.deviceName],
    ['Alert', alert.alertType],
    ['Time', when],
  ];
  const text = [
    `Hello ${recipient.fullName},`,
    '',
    alert.alertTitle,
    alert.alertMessage,
    '',
    ...facts.map(([k, v]) => `${k}: ${v}`),
    '',
    `View your alerts: ${alertsUrl}`,
    '',
    'You receive this email because alert emails are turned on in your VitalWatch profile.',
  ].join('\n');
  const html = `<!doctype html>
<html><body style="font-family:sans-serif;color:#111">
<p>Hello ${escapeHtml(recipient.fullName)},</p>
<h2 style="margin:0 0 8px;color:${urgent ? '#b91c1c' : '#0f766e'}">${escapeHtml(alert.alertTitle)}</h2>
<p>${escapeHtml(alert.alertMessage)}</p>
<table>${facts.map(([k, v]) => `<tr><th align="left">${k}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</table>
<p><a href="${escapeHtml(alertsUrl)}">View your alerts</a></p>
<p style="color:#666;font-size:12px">You receive this email because alert emails are turned on in your VitalWatch profile.</p>
</body></html>`;
  return {
    to: recipient.email,
    subject: `VitalWatch alert: ${alert.alertTitle} (${alert.deviceName})`,
    text,
    html,
    headers: { 'X-VitalWatch-Alert-Id': alert._id, ...(urgent ? { 'X-Priority': '1' } : {}) },
  };
}
