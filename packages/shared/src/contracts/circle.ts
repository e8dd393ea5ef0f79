import {
  acceptedResponse,
  activationCodeResponse,
  CIRCLE_MESSAGES,
  careCircleResponse,
  changeRoleBody,
  circleDeviceParams,
  circleUserBody,
  invitationPreviewResponse,
  invitationTokenBody,
  inviteBody,
  revokeInvitationBody,
} from '../schemas/circle.ts';
import { defineContracts, RECORD_ERRORS } from './contract.ts';

const ownerOnly = [403, 404, 409] as const;

/**
 * `/api/v1/circle/*`: a device's care circle, run by its owners. Anyone in the circle lists it and
 * may leave; owners invite by e-mail, change roles, remove, confirm people who used the code and
 * regenerate the code (others: 403). An invitation link is read without an account.
 */
export const circleContracts = defineContracts('/circle', 'user', {
  list: {
    method: 'POST',
    path: '/:deviceId',
    summary: "A device's care circle",
    params: circleDeviceParams,
    response: careCircleResponse,
    message: CIRCLE_MESSAGES.fetched,
    errors: RECORD_ERRORS,
  },
  invite: {
    method: 'POST',
    path: '/:deviceId/invite',
    summary: 'Invite someone by e-mail',
    params: circleDeviceParams,
    body: inviteBody,
    response: careCircleResponse,
    status: 201,
    message: CIRCLE_MESSAGES.invited,
    errors: ownerOnly,
  },
  revoke: {
    method: 'POST',
    path: '/:deviceId/revoke',
    summary: 'Withdraw an invitation',
    params: circleDeviceParams,
    body: revokeInvitationBody,
    response: careCircleResponse,
    message: CIRCLE_MESSAGES.revoked,
    errors: ownerOnly,
  },
  changeRole: {
    method: 'POST',
    path: '/:deviceId/role',
    summary: "Change a person's role",
    params: circleDeviceParams,
    body: changeRoleBody,
    response: careCircleResponse,
    message: CIRCLE_MESSAGES.roleChanged,
    errors: ownerOnly,
  },
  remove: {
    method: 'POST',
    path: '/:deviceId/remove',
    summary: 'Remove a person (or leave: your own id)',
    params: circleDeviceParams,
    body: circleUserBody,
    response: careCircleResponse,
    message: CIRCLE_MESSAGES.removed,
    errors: ownerOnly,
  },
  confirm: {
    method: 'POST',
    path: '/:deviceId/confirm',
    summary: 'Confirm someone who added the device by its code',
    params: circleDeviceParams,
    body: circleUserBody,
    response: careCircleResponse,
    message: CIRCLE_MESSAGES.confirmed,
    errors: ownerOnly,
  },
  regenerateCode: {
    method: 'POST',
    path: '/:deviceId/regenerate-code',
    summary: 'A new activation code (the old one stops working)',
    params: circleDeviceParams,
    response: activationCodeResponse,
    message: CIRCLE_MESSAGES.codeRegenerated,
    errors: ownerOnly,
  },
  invitation: {
    method: 'POST',
    path: '/invitation',
    auth: 'public',
    summary: 'What an invitation link offers, and whether it still works',
    body: invitationTokenBody,
    response: invitationPreviewResponse,
    message: CIRCLE_MESSAGES.invitation,
    errors: RECORD_ERRORS,
  },
  accept: {
    method: 'POST',
    path: '/accept',
    summary: 'Accept an invitation',
    body: invitationTokenBody,
    response: acceptedResponse,
    message: CIRCLE_MESSAGES.accepted,
    errors: [404, 409],
  },
  askAgain: {
    method: 'POST',
    path: '/ask-again',
    auth: 'public',
    summary: 'Ask the inviter for a new invitation (expired or used link)',
    body: invitationTokenBody,
    response: acceptedResponse,
    message: CIRCLE_MESSAGES.askedAgain,
    errors: RECORD_ERRORS,
  },
});

/**
 * `/api/v1/admin/circle/*`: an admin sees any device's care circle and sets anyone's role in it,
 * making someone owner (issue 26) or stepping one down; the last owner is kept (409) as for owners.
 */
export const adminCircleContracts = defineContracts('/admin/circle', 'admin', {
  list: {
    method: 'POST',
    path: '/:deviceId',
    summary: "Any device's care circle",
    params: circleDeviceParams,
    response: careCircleResponse,
    message: CIRCLE_MESSAGES.fetched,
    errors: RECORD_ERRORS,
  },
  changeRole: {
    method: 'POST',
    path: '/:deviceId/role',
    summary: "Set a person's role (make someone owner)",
    params: circleDeviceParams,
    body: changeRoleBody,
    response: careCircleResponse,
    message: CIRCLE_MESSAGES.roleChanged,
    errors: [404, 409],
  },
});
