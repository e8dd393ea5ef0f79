import { contracts } from '@vitalwatch/shared';
import { caller } from '../../auth/plugin.ts';
import type { AppContext, AppInstance } from '../../context.ts';
import { sendFile, serveContracts, userAuthHooks } from '../../http/contract-routes.ts';

/**
 * Read-only share links, `contracts.share` under /api/v1/share (signed in: make, list and revoke links to one's own
 * devices) and `contracts.shared` under /api/v1/shared/:token (no account: the device's newest reading, the summary of
 * its last 24 hours and its PDF report of the last 7 days, while the link lives and its maker
 * still has the device). Tokens are 256 random bits; only their hash is stored.
 * Making, revoking and every report download through a link are in the audit log.
 */
export async function shareRoutes(app: AppInstance, ctx: AppContext) {
  serveContracts(app, userAuthHooks(ctx.guards), contracts.share, {
    create: async (request) => {
      const { deviceId, days } = request.body;
      const { link, token } = await ctx.shares.create(caller(request).userId, deviceId, days);
      await ctx.audit.record(request, {
        action: 'share-create',
        targetType: 'device',
        targetId: deviceId,
        detail: { days, link: link._id },
      });
      return { link, token };
    },

    list: async (request) => ({
      links: await ctx.shares.list(caller(request).userId, request.body.deviceId),
    }),

    revoke: async (request) => {
      const { revoked, links } = await ctx.shares.revoke(caller(request).userId, request.params.id);
      await ctx.audit.record(request, {
        action: 'share-revoke',
        targetType: 'device',
        targetId: revoked.deviceId,
        detail: { link: revoked._id },
      });
      return { links };
    },
  });

  serveContracts(app, {}, contracts.shared, {
    device: async (request) => {
      const { link, latest } = await ctx.shares.latest(request.params.token);
      return { deviceName: link.deviceName, expiresAt: link.expiresAt.toISOString(), latest };
    },

    history: {
      preHandler: ctx.heavyReads.gate,
      handler: async (request) => {
        const asked = { from: new Date(request.body.from), to: new Date(request.body.to) };
        const { from, to, summary } = await ctx.shares.history(request.params.token, asked);
        return { from: from.toISOString(), to: to.toISOString(), summary };
      },
    },

    report: {
      preHandler: ctx.heavyReads.gate,
      handler: async (request, reply) => {
        const link = await ctx.shares.live(request.params.token);
        const { timeZone } = request.query;
        const asked = { from: new Date(request.query.from), to: new Date(request.query.to) };
        const period = ctx.shares.reportPeriod(asked);
        const [from, to] = [period.from.toISOString(), period.to.toISOString()];
        await ctx.audit.record(request, {
          action: 'data-export',
          actorId: null,
          actorName: 'share link',
          targetType: 'device',
          targetId: link.deviceId,
          detail: { format: 'pdf', kind: 'report', via: 'share link', link: link.id, from, to },
        });
        const pdf = await ctx.shares.report(link, period, timeZone);
        const filename = `vitalwatch-report-${from.slice(0, 10)}-${to.slice(0, 10)}.pdf`;
        return sendFile(reply, 'application/pdf', filename, pdf);
      },
    },
  });
}
