import { ACCOUNT_MESSAGES, contracts } from '@vitalwatch/shared';
import { caller } from '../../auth/plugin.ts';
import type { AppContext, AppInstance } from '../../context.ts';
import { said, sendFile, serveContracts, userAuthHooks } from '../../http/contract-routes.ts';

const LINK_STATE_MESSAGES = {
  valid: ACCOUNT_MESSAGES.linkValid,
  expired: ACCOUNT_MESSAGES.linkExpired,
  used: ACCOUNT_MESSAGES.linkUsed,
  invalid: ACCOUNT_MESSAGES.linkInvalid,
} as const;

/** `contracts.account`: a person's own account without an admin (recovery, verification, sessions, data, closing). */
export async function accountRoutes(app: AppInstance, ctx: AppContext) {
  const { account } = ctx;
  const perMinute = { max: ctx.config.loginLimits.perIpPerMinute, timeWindow: 60_000 };

  serveContracts(app, userAuthHooks(ctx.guards), contracts.account, {
    forgotPassword: {
      rateLimit: perMinute,
      handler: async (request, reply) => {
        const userId = await account.requestReset(request.body.email);
        // One entry either way, so the work does not tell whether an account has the address.
        await ctx.audit.record(request, {
          action: 'password-reset-request',
          actorId: null,
          actorName: null,
          ...(userId ? { targetType: 'user' as const, targetId: userId } : {}),
        });
        reply.status(202);
      },
    },

    linkStatus: {
      rateLimit: perMinute,
      handler: async (request) => {
        const state = await account.linkState(request.body.token, request.body.purpose);
        return said(LINK_STATE_MESSAGES[state], { state });
      },
    },

    resetPassword: {
      rateLimit: perMinute,
      handler: async (request) => {
        const userId = await account.resetPassword(request.body.token, request.body.newPassword);
        await ctx.audit.record(request, {
          action: 'password-reset-link',
          actorId: userId,
          targetType: 'user',
          targetId: userId,
        });
      },
    },

    verifyEmail: {
      rateLimit: perMinute,
      handler: async (request) => {
        const userId = await account.verifyEmail(request.body.token);
        await ctx.audit.record(request, {
          action: 'email-verify',
          actorId: userId,
          targetType: 'user',
          targetId: userId,
        });
      },
    },

    sendVerification: async (request, reply) => {
      const sent = await account.sendVerification(caller(request).userId);
      if (!sent) return said(ACCOUNT_MESSAGES.alreadyVerified, undefined);
      reply.status(202);
    },

    sessions: async (request) => ({ sessions: await account.sessions(caller(request)) }),

    endSession: async (request) => {
      await account.endSession(caller(request).userId, request.params.id);
      await ctx.audit.record(request, { action: 'session-end', detail: { session: request.params.id } });
    },

    endOtherSessions: async (request) => {
      const ended = await account.endOtherSessions(caller(request));
      await ctx.audit.record(request, { action: 'session-end', detail: { sessions: String(ended) } });
    },

    dataExport: {
      preHandler: ctx.heavyReads.gate,
      handler: async (request, reply) => {
        const { userId } = caller(request);
        const root = `${ctx.config.publicUrl ?? `${request.protocol}://${request.host}`}/fhir/R4`;
        await ctx.audit.record(request, {
          action: 'account-data-download',
          targetType: 'user',
          targetId: userId,
        });
        const zip = await ctx.accountData(userId, root);
        const day = new Date().toISOString().slice(0, 10);
        return sendFile(reply, 'application/zip', `vitalwatch-my-data-${day}.zip`, zip);
      },
    },

    close: async (request) => {
      const { userId } = caller(request);
      const { password, code } = request.body;
      const { passed } = await account.close(userId, password, code);
      await ctx.audit.record(request, {
        action: 'account-close',
        actorId: userId,
        actorName: null,
        targetType: 'user',
        targetId: userId,
        detail: { devicesPassed: passed.map((p) => `${p.device_id} → ${p.user_id}`).join(', ') || 'none' },
      });
    },
  });
}
