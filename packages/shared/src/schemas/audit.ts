import { z } from 'zod';
import { VITAL_ALARM_TYPES, VITAL_ALARMS, type VitalAlarmType } from '../rules/alarms.ts';
import { envelope } from './common.ts';

/**
 * The security-relevant actions the audit log records (HIPAA 164.312(b): record and examine
 * activity in systems that hold health data), with the label the admin's audit screen shows.
 */
export const AUDIT_ACTIONS = {
  'sign-in': 'Sign-in',
  'sign-out': 'Sign-out',
  'sign-up': 'Account created',
  'password-change': 'Password changed',
  'password-reset': 'Password reset by an admin',
  'password-reset-request': 'Password reset link asked for',
  'password-reset-link': 'Password reset with a mailed link',
  'email-verify': 'E-mail address verified',
  'session-end': 'Session ended from Profile',
  'account-data-download': 'Own data downloaded',
  'account-close': 'Account closed by its owner',
  'two-factor-enable': 'Two-factor sign-in turned on',
  'two-factor-disable': 'Two-factor sign-in turned off',
  'recovery-codes-renew': 'Recovery codes renewed',
  'user-create': 'User added by an admin',
  'user-update': 'User changed by an admin',
  'role-change': 'Role changed',
  'user-delete': 'User deleted',
  'device-create': 'Device created',
  'device-delete': 'Device deleted',
  'device-code-regenerate': 'Device code regenerated',
  'device-validity': 'Device enabled or disabled',
  'device-assign': 'Device added to a user',
  'device-unassign': 'Device removed from a user',
  'device-backup-contacts': 'Backup contacts set',
  'device-rename': 'Device renamed',
  'device-test-reading': 'Test reading sent by an admin',
  'alarm-settings-change': 'Alarm settings changed',
  'access-denied': 'Admin page or action refused',
  'alert-acknowledge': 'Alert acknowledged',
  'alert-resolve': 'Alert resolved',
  'data-export': 'Data exported',
  'share-create': 'Share link created',
  'share-revoke': 'Share link revoked',
  'gateway-issue': 'Bluetooth gateway paired',
  'gateway-revoke': 'Bluetooth gateway revoked',
  'team-create': 'Care team created',
  'team-rename': 'Care team renamed',
  'team-delete': 'Care team deleted',
  'team-devices': 'Care team devices changed',
  'team-members': 'Care team members changed',
  'backup-download': 'Backup downloaded',
  'circle-invite': 'Invited into a care circle',
  'circle-invite-revoke': 'Care circle invitation withdrawn',
  'circle-join': 'Joined a care circle',
  'circle-role': 'Care circle role changed',
  'circle-remove': 'Removed from a care circle',
  'circle-leave': 'Left a care circle',
  'circle-confirm': 'Care circle member confirmed',
  'webhook-create': 'Team or platform webhook added',
  'webhook-delete': 'Team or platform webhook deleted',
  'webhook-replay': 'Team or platform webhook delivery replayed',
  'webhook-rotate': 'Webhook signing secret rotated',
} as const;
export type AuditAction = keyof typeof AUDIT_ACTIONS;

/** The names of an entry's facts as the audit screen shows them; others show as they are. */
const DETAIL_NAMES: Record<string, string> = {
  users: 'Users',
  backupUsers: 'Backup contacts',
  added: 'Added',
  removed: 'Removed',
  team: 'Team',
  from: 'From',
  to: 'To',
  reason: 'Refused because',
  route: 'Route',
  role: 'Role',
  seenBy: 'Name seen by',
  scope: 'Webhook of',
  url: 'Address',
  oldSecretUntil: 'Old secret signs until',
  limit: 'alarm limit',
  critical: 'critical level',
  delaySeconds: 'delay (s)',
  clearMargin: 'clearing margin',
  clearSeconds: 'clearing time (s)',
  repeatEveryMinutes: 'Repeat every (min)',
  repeatForMinutes: 'Repeat for (min)',
  backupAfterMinutes: 'Backup contacts after (min)',
  fallbackAfterSeconds: 'Next channel after (s)',
};
const isAlarmType = (name: string | undefined): name is VitalAlarmType =>
  (VITAL_ALARM_TYPES as readonly (string | undefined)[]).includes(name);

/**
 * An entry's fact name in words: `conditions.LOW_SPO2.limit` (an alarm setting changed) is
 * "Low blood oxygen alarm limit", `escalation.repeatEveryMinutes` "Repeat every (min)".
 */
export function auditDetailName(key: string): string {
  const [group, name, field] = key.split('.');
  if (group === 'conditions' && isAlarmType(name) && field) {
    return `${VITAL_ALARMS[name].title} ${DETAIL_NAMES[field] ?? field}`;
  }
  if (group === 'escalation' && name) return DETAIL_NAMES[name] ?? name;
  return DETAIL_NAMES[key] ?? key;
}
const actionNames = Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]];
export const auditAction = z.enum(actionNames);

export const AUDIT_OUTCOMES = ['success', 'failure'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

export const AUDIT_MESSAGES = {
  fetched: 'Audit log fetched successfully',
} as const;

/** Most entries one page of the audit log holds. */
export const AUDIT_PAGE_MAX = 200;

export const auditEntry = z.object({
  id: z.string(),
  at: z.string(),
  action: auditAction,
  outcome: z.enum(AUDIT_OUTCOMES),
  /** Who acted: null for a failed sign-in with an unknown name, or a device-token action. */
  actorId: z.string().nullable(),
  /** The actor's username when it happened (kept after the account is deleted). */
  actorName: z.string().nullable(),
  /** What was acted on: a user, device, alert or care team id. */
  targetType: z.enum(['user', 'device', 'alert', 'team']).nullable(),
  targetId: z.string().nullable(),
  /** The target's name now (a device's shared name, a user's username); null when it is gone. */
  targetName: z.string().nullable(),
  /** The client's address, as the rate limits count it. */
  ip: z.string().nullable(),
  /** Facts of the action (a new role, the reason a sign-in failed, an export's range). */
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});
export type AuditEntry = z.infer<typeof auditEntry>;

const isoInstant = z.iso.datetime({ offset: true });

/** GET /api/v1/admin/audit filters: newest first; `before` (a page's `nextBefore`) pages further back. */
export const auditQuery = z.object({
  action: auditAction.optional(),
  outcome: z.enum(AUDIT_OUTCOMES).optional(),
  /** Part of the actor's username, any case. */
  actor: z.string().trim().min(1).max(64).optional(),
  targetId: z.string().trim().min(1).max(64).optional(),
  from: isoInstant.optional(),
  to: isoInstant.optional(),
  before: z
    .string()
    .regex(/^\d{1,15}-\d{1,19}$/, "must be a page's nextBefore")
    .optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).default(50),
});
export type AuditQuery = z.infer<typeof auditQuery>;

export const auditPage = z.object({
  entries: z.array(auditEntry),
  /** Entries matching the filters, all pages together: on the first page only (null on the others). */
  total: z.number().int().nullable(),
  /** Pass as `before` for the next (older) page; null when there is none. */
  nextBefore: z.string().nullable(),
});
export type AuditPage = z.infer<typeof auditPage>;
export const auditPageResponse = envelope(auditPage);
