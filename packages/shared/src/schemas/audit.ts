import { z } from 'zod';
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
  'alert-acknowledge': 'Alert acknowledged',
  'alert-resolve': 'Alert resolved',
  'data-export': 'Data exported',
  'share-create': 'Share link created',
  'share-revoke': 'Share link revoked',
} as const;
export type AuditAction = keyof typeof AUDIT_ACTIONS;
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
  /** What was acted on: a user, device or alert id. */
  targetType: z.enum(['user', 'device', 'alert']).nullable(),
  targetId: z.string().nullable(),
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
  /** Pass as `before` for the next (older) page; null when there is none. */
  nextBefore: z.string().nullable(),
});
export type AuditPage = z.infer<typeof auditPage>;
export const auditPageResponse = envelope(auditPage);
