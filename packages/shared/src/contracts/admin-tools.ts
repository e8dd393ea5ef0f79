import { z } from 'zod';
import { AUDIT_MESSAGES, auditPageResponse, auditQuery } from '../schemas/audit.ts';
import { idParam } from '../schemas/common.ts';
import {
  adminDeviceLatestResponse,
  DEVICE_SETUP_MESSAGES,
  testReadingResponse,
} from '../schemas/device-setup.ts';
import { adminShareLinkResponse, adminShareLinksResponse, SHARE_MESSAGES } from '../schemas/share.ts';
import { defineContracts, RECORD_ERRORS } from './contract.ts';

/** `/api/v1/admin/*`: a device's first run (its newest reading, where MQTT listens, a test reading). */
export const deviceSetupContracts = defineContracts('/admin', 'admin', {
  latest: {
    method: 'POST',
    path: '/device-latest/:id',
    summary: "A device's newest reading and where MQTT listens",
    params: idParam,
    response: adminDeviceLatestResponse,
    message: DEVICE_SETUP_MESSAGES.latestFetched,
    errors: RECORD_ERRORS,
  },
  testReading: {
    method: 'POST',
    path: '/test-reading/:id',
    summary: 'Store one normal reading for a device, as the device would send it',
    params: idParam,
    response: testReadingResponse,
    status: 202,
    message: DEVICE_SETUP_MESSAGES.testReadingSent,
    errors: [404, 409],
  },
});

/** `GET /api/v1/admin/audit`: the audit log, newest first, filtered. */
export const auditContracts = defineContracts('/admin', 'admin', {
  list: {
    method: 'GET',
    path: '/audit',
    summary: 'The audit log',
    query: auditQuery,
    response: auditPageResponse,
    message: AUDIT_MESSAGES.fetched,
  },
});

/** `/api/v1/admin/share-links`: every read-only link, and revoking any live one. */
export const adminShareContracts = defineContracts('/admin', 'admin', {
  list: {
    method: 'GET',
    path: '/share-links',
    summary: 'Every share link',
    response: adminShareLinksResponse,
    message: SHARE_MESSAGES.adminListed,
  },
  revoke: {
    method: 'POST',
    path: '/share-links/:id/revoke',
    summary: 'Revoke any share link',
    params: z.object({ id: z.string().uuid() }),
    response: adminShareLinkResponse,
    message: SHARE_MESSAGES.adminRevoked,
    errors: RECORD_ERRORS,
  },
});
