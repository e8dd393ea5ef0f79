import { z } from 'zod';
import { reportQuery } from '../schemas/export.ts';
import { HEALTH_MESSAGES } from '../schemas/health.ts';
import {
  createShareBody,
  createShareResponse,
  listSharesBody,
  SHARE_MESSAGES,
  sharedDeviceResponse,
  sharedHistoryBody,
  sharedHistoryResponse,
  shareLinksResponse,
} from '../schemas/share.ts';
import { defineContracts, RECORD_ERRORS } from './contract.ts';

/** `/api/v1/share/*`: the signed-in caller makes, lists and revokes links to their own devices. */
export const shareContracts = defineContracts('/share', 'signed-in', {
  create: {
    method: 'POST',
    path: '/create',
    summary: 'Make a read-only share link',
    body: createShareBody,
    response: createShareResponse,
    status: 201,
    message: SHARE_MESSAGES.created,
    errors: RECORD_ERRORS,
  },
  list: {
    method: 'POST',
    path: '/list',
    summary: "A device's share links",
    body: listSharesBody,
    response: shareLinksResponse,
    message: SHARE_MESSAGES.listed,
    errors: RECORD_ERRORS,
  },
  revoke: {
    method: 'POST',
    path: '/revoke/:id',
    summary: 'Revoke a share link',
    params: z.object({ id: z.string().uuid() }),
    response: shareLinksResponse,
    message: SHARE_MESSAGES.revoked,
    errors: RECORD_ERRORS,
  },
});

const tokenParams = z.object({ token: z.string().min(20).max(100) });

/** `/api/v1/shared/:token/*`: what a live link shows anyone who has it, without an account. */
export const sharedContracts = defineContracts('/shared', 'public', {
  device: {
    method: 'GET',
    path: '/:token',
    summary: 'Share link: the device and its newest reading',
    params: tokenParams,
    response: sharedDeviceResponse,
    message: HEALTH_MESSAGES.fetched,
    errors: RECORD_ERRORS,
  },
  history: {
    method: 'POST',
    path: '/:token/history',
    summary: "Share link: the device's history",
    params: tokenParams,
    body: sharedHistoryBody,
    response: sharedHistoryResponse,
    message: HEALTH_MESSAGES.historyFetched,
    errors: RECORD_ERRORS,
  },
  report: {
    method: 'GET',
    path: '/:token/report',
    summary: "Share link: the device's PDF report",
    params: tokenParams,
    query: reportQuery,
    produces: 'application/pdf',
    errors: RECORD_ERRORS,
  },
});
