import { SERVER_MESSAGES } from '../messages.ts';
import { idParam, messageOnly } from '../schemas/common.ts';
import {
  pushBrowsersResponse,
  pushPublicKeyResponse,
  pushReceiptBody,
  pushUnsubscribeBody,
} from '../schemas/push.ts';
import { defineContracts, RECORD_ERRORS } from './contract.ts';

const removeBrowser = {
  summary: 'Remove a push browser',
  params: idParam,
  response: messageOnly,
  message: SERVER_MESSAGES.pushBrowserRemoved,
  errors: RECORD_ERRORS,
};

/** `/api/v1/push/*`: the VAPID public key, receipts of shown messages, and the caller's browsers. */
export const pushContracts = defineContracts('/push', 'signed-in', {
  publicKey: {
    method: 'GET',
    path: '/public-key',
    auth: 'public',
    summary: "The server's VAPID public key",
    response: pushPublicKeyResponse,
    message: SERVER_MESSAGES.pushPublicKey,
    errors: [503],
  },
  // The service worker's report, signed-in or not: the message's own token says which alert and whom.
  receipt: {
    method: 'POST',
    path: '/receipt',
    auth: 'public',
    summary: 'A push message was shown or opened (service worker; its receipt token authenticates)',
    body: pushReceiptBody,
    response: messageOnly,
    message: SERVER_MESSAGES.pushReceiptRecorded,
    errors: [401],
  },
  browsers: {
    method: 'POST',
    path: '/subscriptions',
    summary: "The caller's push browsers",
    response: pushBrowsersResponse,
    message: SERVER_MESSAGES.pushBrowsers,
  },
  unsubscribe: {
    method: 'POST',
    path: '/unsubscribe',
    summary: 'Stop push to a browser',
    body: pushUnsubscribeBody,
    response: messageOnly,
    message: SERVER_MESSAGES.pushBrowserRemoved,
  },
  // POST …/delete for the app's all-POST convention; DELETE for REST clients.
  removeBrowser: { method: 'POST', path: '/subscriptions/:id/delete', ...removeBrowser },
  deleteBrowser: { method: 'DELETE', path: '/subscriptions/:id', ...removeBrowser },
});
