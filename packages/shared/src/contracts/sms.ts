import { messageOnly } from '../schemas/common.ts';
import {
  SMS_MESSAGES,
  smsInboundBody,
  smsNumberBody,
  smsStatusResponse,
  smsTestResponse,
  smsVerifyBody,
} from '../schemas/sms.ts';
import { defineContracts } from './contract.ts';

/** `/api/v1/sms/*`: the caller's phone number for alert SMS, its verification, a test, and the provider's inbound webhook. */
export const smsContracts = defineContracts('/sms', 'signed-in', {
  status: {
    method: 'POST',
    path: '/status',
    summary: "The caller's number (masked), whether it is verified or opted out, and whether SMS is offered",
    response: smsStatusResponse,
    message: SMS_MESSAGES.status,
    errors: [],
  },
  setNumber: {
    method: 'POST',
    path: '/number',
    summary: 'Set the phone number and send it a 6-digit code',
    body: smsNumberBody,
    response: smsStatusResponse,
    message: SMS_MESSAGES.codeSent,
    errors: [400, 429, 503],
  },
  verify: {
    method: 'POST',
    path: '/verify',
    summary: 'Verify the number with the code it received',
    body: smsVerifyBody,
    response: smsStatusResponse,
    message: SMS_MESSAGES.verified,
    errors: [400, 503],
  },
  remove: {
    method: 'POST',
    path: '/remove',
    summary: 'Remove the phone number',
    response: smsStatusResponse,
    message: SMS_MESSAGES.removed,
    errors: [],
  },
  test: {
    method: 'POST',
    path: '/test',
    summary: 'Send a test SMS now and say whether the provider accepted it',
    response: smsTestResponse,
    message: SMS_MESSAGES.tested,
    errors: [400, 503],
  },
  inbound: {
    method: 'POST',
    path: '/inbound/twilio',
    auth: 'public',
    summary: "Twilio's inbound message webhook (signed): STOP and START replies",
    body: smsInboundBody,
    response: messageOnly,
    message: SMS_MESSAGES.inbound,
    errors: [403, 503],
  },
});
