import { type AuditAction, contracts } from '@vitalwatch/shared';
import type { FastifyRequest } from 'fastify';
import { caller } from '../../auth/plugin.ts';
import type { AppContext, AppInstance } from '../../context.ts';
import { isRefusal } from '../../errors.ts';
import { serveContracts, userAuthHooks } from '../../http/contract-routes.ts';

/**
 * `contracts.twoFactor`, under /api/v1/user: the second step of a sign-in, and the profile's setup,
 * turning off and recovery codes. Every change and every refused code is in the audit log.
 */
export async function twoFactorRoutes(app: AppInstance, ctx: AppContext) {
  const { twoFactor, config } = ctx;
  const rateLimit = { max: config.loginLimits.perIpPerMinute, timeWindow: 60_000 };

  /** Runs `work`; a refusal of the caller's request is audited as a failed `action`. */
  const audited = async <T>(
    request: FastifyRequest,
    action: AuditAction,
    work: () => Promise<T>,
    actorId?: () => Promise<string | null>,
  ): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      if (isRefusal(err)) {
        await ctx.audit.record(request, {
          action,
          outcome: 'failure',
          ...(actorId ? { actorId: await actorId() } : {}),
          detail: { reason: err.message },
        });
      }
      throw err;
    }
  };

  serveContracts(app, userAuthHooks(ctx.guards), contracts.twoFactor, {
    logInSecondStep: {
      rateLimit,
      handler: async (request) => {
        const { challengeToken, code } = request.body;
        const done = await audited(
          request,
          'sign-in',
          () => twoFactor.completeSignIn(challengeToken, code),
          () => twoFactor.challengedUser(challengeToken),
        );
        if (done.recoveryCodes)
          await ctx.audit.record(request, { action: 'two-factor-enable', actorId: done.userId });
        await ctx.audit.record(request, {
          action: 'sign-in',
          actorId: done.userId,
          detail: { secondFactor: done.factor },
        });
        return { ...done.session, ...(done.recoveryCodes ? { recoveryCodes: done.recoveryCodes } : {}) };
      },
    },

    startSetup: {
      rateLimit,
      handler: async (request) => twoFactor.startSetup(caller(request).userId, request.body.password),
    },

    enable: {
      rateLimit,
      handler: async (request) => {
        const data = await audited(request, 'two-factor-enable', () =>
          twoFactor.enable(caller(request), request.body.code),
        );
        await ctx.audit.record(request, { action: 'two-factor-enable' });
        return data;
      },
    },

    disable: {
      rateLimit,
      handler: async (request) => {
        const { password, code } = request.body;
        const user = await audited(request, 'two-factor-disable', () =>
          twoFactor.disable(caller(request).userId, password, code),
        );
        await ctx.audit.record(request, { action: 'two-factor-disable' });
        return { user };
      },
    },

    renewRecoveryCodes: {
      rateLimit,
      handler: async (request) => {
        const data = await audited(request, 'recovery-codes-renew', () =>
          twoFactor.renewRecoveryCodes(caller(request).userId, request.body.code),
        );
        await ctx.audit.record(request, { action: 'recovery-codes-renew' });
        return data;
      },
    },
  });
}
