import { CIRCLE_ROLE_LABELS, type CircleRole } from '@vitalwatch/shared';
import type { OutgoingMail } from '../../mail/mailer.ts';

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const WHAT_ROLE_GIVES: Record<CircleRole, string> = {
  owner: 'see its readings, receive its alerts and run its care circle',
  carer: 'see its readings and receive its alerts',
  viewer: 'see its readings (viewers receive no alerts)',
};

/** A plain message with one link, as text and HTML. */
function linkMail(to: string, subject: string, lines: string[], link: { label: string; url: string }) {
  const text = [...lines, `${link.label}: ${link.url}`].join('\n\n');
  const html = `<!doctype html>
<html><body style="font-family:sans-serif;color:#111">
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>
</body></html>`;
  return { to, subject, text, html } satisfies OutgoingMail;
}

export function invitationMail(
  to: string,
  invite: { inviter: string; deviceName: string; role: CircleRole; url: string; days: number },
): OutgoingMail {
  return linkMail(
    to,
    `${invite.inviter} invites you to the care circle of ${invite.deviceName}`,
    [
      'Hello,',
      `${invite.inviter} invites you to join the care circle of ${invite.deviceName} on VitalWatch as ${CIRCLE_ROLE_LABELS[invite.role].toLowerCase()}: you will ${WHAT_ROLE_GIVES[invite.role]}.`,
      `The link works once, for ${invite.days} days. Sign in or create an account from it, then accept.`,
      'If you did not expect this, ignore this e-mail.',
    ],
    { label: 'Open the invitation', url: invite.url },
  );
}

export function askAgainMail(to: string, ask: { email: string; deviceName: string; url: string }) {
  return linkMail(
    to,
    `${ask.email} asks for a new invitation to ${ask.deviceName}`,
    [
      'Hello,',
      `The invitation you sent to ${ask.email} for the care circle of ${ask.deviceName} has expired or was already used. They ask for a new one.`,
    ],
    { label: 'Open the care circle', url: ask.url },
  );
}

export function confirmMail(to: string, ask: { who: string; deviceName: string; url: string }) {
  return linkMail(
    to,
    `${ask.who} used the activation code of ${ask.deviceName}: confirm them?`,
    [
      'Hello,',
      `${ask.who} added ${ask.deviceName} with its activation code. They see nothing of it until an owner confirms them in its care circle.`,
      'If you do not know them, remove them there and make a new activation code.',
    ],
    { label: 'Open the care circle', url: ask.url },
  );
}
