import { RESET_LINK_TTL_MINUTES, VERIFY_LINK_TTL_HOURS } from '@vitalwatch/shared';
import { escapeHtml, type Recipient } from '../../mail/alert-mail.ts';
import type { OutgoingMail } from '../../mail/mailer.ts';

/** A plain message with one paragraph per line and, when given, one link to follow. */
function accountMail(
  to: Recipient,
  subject: string,
  lines: string[],
  link?: { label: string; url: string },
): OutgoingMail {
  const text = [
    `Hello ${to.fullName},`,
    '',
    ...lines,
    ...(link ? ['', `${link.label}: ${link.url}`] : []),
  ].join('\n');
  const html = `<!doctype html>
<html><body style="font-family:sans-serif;color:#111">
<p>Hello ${escapeHtml(to.fullName)},</p>
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
${link ? `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>` : ''}
</body></html>`;
  return { to: to.email, subject, text, html };
}

export const resetMail = (to: Recipient, url: string) =>
  accountMail(
    to,
    'Reset your VitalWatch password',
    [
      'Someone (we hope you) asked to reset the password of your VitalWatch account.',
      `The link works once, for ${RESET_LINK_TTL_MINUTES} minutes. Setting a new password signs you out everywhere.`,
      'If you did not ask for this, ignore this message: your password stays as it is.',
    ],
    { label: 'Choose a new password', url },
  );

export const verifyMail = (to: Recipient, url: string) =>
  accountMail(
    to,
    'Verify your VitalWatch e-mail address',
    [
      'Please confirm that this address is yours. Alert e-mails are sent only to a verified address.',
      `The link works once, for ${VERIFY_LINK_TTL_HOURS} hours.`,
    ],
    { label: 'Verify my address', url },
  );

export const closedMail = (to: Recipient) =>
  accountMail(to, 'Your VitalWatch account is closed', [
    'Your VitalWatch account has been closed as you asked. You are signed out everywhere and receive no more alerts.',
    'Devices you owned alone passed to their next carer. The audit log keeps its entries under your account id only.',
  ]);
