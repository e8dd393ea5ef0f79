import { randomBytes } from 'node:crypto';
import {
  createShareBody,
  createShareResponse,
  HEALTH_MESSAGES,
  listSharesBody,
  reportQuery,
  SHARE_HISTORY_HOURS,
  SHARE_MESSAGES,
  SHARE_REPORT_DAYS,
  sharedDeviceResponse,
  sharedHistoryBody,
  sharedHistoryResponse,
  shareLinksResponse,
} from '@vitalwatch/shared';
import { z } from 'zod';
import { caller } from '../../auth/plugin.ts';
import { hashToken } from '../../auth/tokens.ts';
import type { AppContext, AppInstance } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { canSeeDevice, findDeviceById } from '../device/service.ts';
import { reportData, reportPdf } from '../export/service.ts';
import { listReadings, presentHealthRecord, rangeSummary } from '../readings/service.ts';
import * as repo from './repository.ts';
import { servedWindow } from './window.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const deviceNotFound = () => notFound(HEALTH_MESSAGES.notFound);

/**
 * Read-only share links under /api/v1/share (signed in: make, list and revoke links to one's own
 * devices) and /api/v1/shared/:token (no account: the device's newest reading, the summary of
 * its last 24 hours and its PDF report of the last 7 days, while the link lives and its maker
 * still has the device). Tokens are 256 random bits; only their hash is stored.
 * Making, revoking and every report download through a link are in the audit log.
 */
export async function shareRoutes(app: AppInstance, ctx: AppContext) {
  const onRequest = ctx.guards.requireAuth;

  app.post(
    '/create',
    { onRequest, schema: { body: createShareBody, response: { 201: createShareResponse } } },
    async (request, reply) => {
      const { userId } = caller(request);
      const { deviceId, days } = request.body;
      if (!(await canSeeDevice(ctx.db, userId, deviceId))) throw deviceNotFound();
      const token = randomBytes(32).toString('base64url');
      const link = await repo.insertLink(ctx.db, {
        tokenHash: hashToken(token),
        deviceId,
        userId,
        expiresAt: new Date(Date.now() + days * DAY_MS),
      });
      await ctx.audit.record(request, {
        action: 'share-create',
        targetType: 'device',
        targetId: deviceId,
        detail: { days, link: link.id },
      });
      return reply.code(201).send({
        success: true as const,
        message: SHARE_MESSAGES.created,
        data: { link: repo.present(link), token },
      });
    },
  );

  app.post(
    '/list',
    { onRequest, schema: { body: listSharesBody, response: { 200: shareLinksResponse } } },
    async (request) => {
      const { userId } = caller(request);
      if (!(await canSeeDevice(ctx.db, userId, request.body.deviceId))) throw deviceNotFound();
      const links = await repo.linksOf(ctx.db, request.body.deviceId, userId);
      return {
        success: true as const,
        message: SHARE_MESSAGES.listed,
        data: { links: links.map(repo.present) },
      };
    },
  );

  app.post(
    '/revoke/:id',
    {
      onRequest,
      schema: { params: z.object({ id: z.string().uuid() }), response: { 200: shareLinksResponse } },
    },
    async (request) => {
      const { userId } = caller(request);
      const link = await repo.revoke(ctx.db, request.params.id, userId);
      if (!link) throw notFound(SHARE_MESSAGES.notFound);
      await ctx.audit.record(request, {
        action: 'share-revoke',
        targetType: 'device',
        targetId: link.deviceId,
        detail: { link: link.id },
      });
      const links = await repo.linksOf(ctx.db, link.deviceId, userId);
      return {
        success: true as const,
        message: SHARE_MESSAGES.revoked,
        data: { links: links.map(repo.present) },
      };
    },
  );
}

export async function sharedRoutes(app: AppInstance, ctx: AppContext) {
  const token = z.object({ token: z.string().min(20).max(100) });

  /** The live link of `value`: unknown, expired, revoked and orphaned links all answer the same 404. */
  async function liveLink(value: string) {
    const link = await repo.findLive(ctx.db, hashToken(value));
    if (!link) throw notFound(SHARE_MESSAGES.notFound);
    return link;
  }

  app.get(
    '/:token',
    { schema: { params: token, response: { 200: sharedDeviceResponse } } },
    async (request) => {
      const link = await liveLink(request.params.token);
      const [device, latest] = await Promise.all([
        findDeviceById(ctx.db, link.deviceId),
        listReadings(ctx.db, link.deviceId, { limit: 1 }),
      ]);
      return {
        success: true as const,
        message: HEALTH_MESSAGES.fetched,
        data: {
          deviceName: device?.deviceName ?? 'Device',
          expiresAt: link.expiresAt.toISOString(),
          latest: latest[0] ? presentHealthRecord(latest[0]) : null,
        },
      };
    },
  );

  app.post(
    '/:token/history',
    {
      preHandler: ctx.heavyReads.gate,
      schema: { params: token, body: sharedHistoryBody, response: { 200: sharedHistoryResponse } },
    },
    async (request) => {
      const link = await liveLink(request.params.token);
      const asked = { from: new Date(request.body.from), to: new Date(request.body.to) };
      const { from, to } = servedWindow(asked, SHARE_HISTORY_HOURS * HOUR_MS);
      return {
        success: true as const,
        message: HEALTH_MESSAGES.historyFetched,
        data: {
          from: from.toISOString(),
          to: to.toISOString(),
          summary: await rangeSummary(ctx.db, link.deviceId, from, to),
        },
      };
    },
  );

  app.get(
    '/:token/report',
    { preHandler: ctx.heavyReads.gate, schema: { params: token, querystring: reportQuery } },
    async (request, reply) => {
      const link = await liveLink(request.params.token);
      const { timeZone } = request.query;
      const asked = { from: new Date(request.query.from), to: new Date(request.query.to) };
      const period = servedWindow(asked, SHARE_REPORT_DAYS * DAY_MS);
      const [from, to] = [period.from.toISOString(), period.to.toISOString()];
      await ctx.audit.record(request, {
        action: 'data-export',
        actorId: null,
        actorName: 'share link',
        targetType: 'device',
        targetId: link.deviceId,
        detail: { format: 'pdf', kind: 'report', via: 'share link', link: link.id, from, to },
      });
      const device = await findDeviceById(ctx.db, link.deviceId);
      const data = await reportData(ctx.db, { deviceId: link.deviceId, ...period, timeZone });
      return reply
        .header('content-type', 'application/pdf')
        .header(
          'content-disposition',
          `attachment; filename="vitalwatch-report-${from.slice(0, 10)}-${to.slice(0, 10)}.pdf"`,
        )
        .send(
          reportPdf({ deviceName: device?.deviceName ?? 'Device', ...period, timeZone, unit: 'F' }, data),
        );
    },
  );
}
