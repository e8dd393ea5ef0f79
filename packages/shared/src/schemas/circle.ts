import { z } from 'zod';
import { CIRCLE_ROLES } from '../constants.ts';
import { envelope } from './common.ts';
import { emailField } from './user.ts';

/** An invitation link works this many days (issue 26), once. */
export const CIRCLE_INVITATION_DAYS = 7;

/** The web page an invitation link opens: `/invitation/<token>`. */
export const INVITATION_PAGE_PATH = '/invitation';
/** My Devices, where each device's care circle is run. */
export const DEVICES_PAGE_PATH = '/dashboard/devices';

export const CIRCLE_MESSAGES = {
  fetched: 'Care circle fetched successfully',
  invited: 'Invitation sent',
  revoked: 'Invitation revoked',
  roleChanged: 'Role changed',
  removed: 'Removed from the care circle',
  left: 'You left the care circle',
  confirmed: 'Confirmed',
  codeRegenerated: 'Activation code regenerated successfully',
  invitation: 'Invitation fetched successfully',
  accepted: 'Invitation accepted',
  askedAgain: 'We asked for a new invitation',
  ownerOnly: 'Only an owner of this device can do this',
  alreadyMember: 'This person is already in the care circle',
  notMember: 'This person is not in the care circle',
  lastOwner: 'A device needs an owner: make someone else owner first',
  invitationNotFound: 'This invitation link is not valid',
  invitationExpired: 'This invitation has expired',
  invitationUsed: 'This invitation has already been used',
  invitationRevoked: 'This invitation was withdrawn',
  adminCannotJoin: 'Admins see every device already and cannot join a care circle',
  pendingConfirmation: 'An owner of this device must confirm you before you can see it. We have told them.',
} as const;

export const circleRoleField = z.enum(CIRCLE_ROLES, { error: 'Choose owner, carer or viewer' });

/** How a person of the circle hears of alerts: a viewer never does. */
export const CIRCLE_ALERT_ROUTES = ['primary', 'backup', 'none'] as const;
export type CircleAlertRoute = (typeof CIRCLE_ALERT_ROUTES)[number];
export const CIRCLE_ALERT_ROUTE_LABELS: Record<CircleAlertRoute, string> = {
  primary: 'Primary: every alert',
  backup: 'Backup: when an urgent alert is not acknowledged',
  none: 'No alerts',
};

export const circleMember = z.object({
  userId: z.string(),
  fullName: z.string(),
  circleRole: z.enum(CIRCLE_ROLES),
  alerts: z.enum(CIRCLE_ALERT_ROUTES),
  since: z.string(),
  /** Added by activation code, waiting for an owner to confirm. */
  pending: z.boolean(),
  /** Their browsers whose daily checks went unanswered (channel health): "not receiving". */
  browsersNotReceiving: z.number().int(),
  /** Whether any of their channels works (a receiving browser, a verified e-mail, a working webhook). */
  workingChannel: z.boolean(),
});
export type CircleMember = z.infer<typeof circleMember>;

export const circleInvitation = z.object({
  _id: z.string(),
  email: z.string(),
  circleRole: z.enum(CIRCLE_ROLES),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type CircleInvitation = z.infer<typeof circleInvitation>;

export const careCircle = z.object({
  deviceId: z.string(),
  members: z.array(circleMember),
  /** Open invitations (owners only; empty for others). */
  invitations: z.array(circleInvitation),
  /** Whether the caller may invite, change roles and remove people. */
  canManage: z.boolean(),
});
export type CareCircle = z.infer<typeof careCircle>;
export const careCircleResponse = envelope(z.object({ circle: careCircle }));

export const circleDeviceParams = z.object({ deviceId: z.string().min(1).max(64) });

export const inviteBody = z.object({ email: emailField, circleRole: circleRoleField });
export type InviteBody = z.infer<typeof inviteBody>;
export const revokeInvitationBody = z.object({ invitationId: z.string().min(1).max(64) });
export const changeRoleBody = z.object({
  userId: z.string().min(1).max(64),
  circleRole: circleRoleField,
  contactRole: z.enum(['primary', 'backup']).optional(),
});
export const circleUserBody = z.object({ userId: z.string().min(1).max(64) });
export const activationCodeResponse = envelope(z.object({ activationCode: z.string() }));

export const invitationTokenBody = z.object({ token: z.string().min(20).max(100) });
/** What an invitation link shows before anyone signs in. */
export const invitationPreview = z.object({
  deviceName: z.string(),
  invitedBy: z.string(),
  email: z.string(),
  circleRole: z.enum(CIRCLE_ROLES),
  expiresAt: z.string(),
  state: z.enum(['open', 'expired', 'used', 'revoked']),
});
export type InvitationPreview = z.infer<typeof invitationPreview>;
export const invitationPreviewResponse = envelope(z.object({ invitation: invitationPreview }));
export const acceptedResponse = envelope(z.object({ deviceId: z.string() }));
