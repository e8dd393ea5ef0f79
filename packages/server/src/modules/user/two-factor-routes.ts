import {
  type AuditAction,
  profileResponse,
  recoveryCodesBody,
  SERVER_MESSAGES,
  TWO_FACTOR_MESSAGES,
  twoFactorCodesResponse,
  twoFactorDisableBody,
  twoFactorEnableBody,
  twoFactorLoginBody,
  twoFactorLoginResponse,
  twoFactorSetupBody,
  twoFactorSetupResponse,
} from '@vitalwatch/shared';
import type { FastifyRequest } from 'fastify';
import { caller } from '../../auth/plugin.ts';
import type { AppContext, AppInstance } from '../../context.ts';
import { isRefusal } from '../../errors.ts';

/**
 * Two-factor sign-in under /api/v1/user: the second step of a sign-in, and the profile's setup,
 * turning off and recovery codes. Every change and every refused code is in the audit log.
 */
export async function twoFactorRoutes(app: AppInstance, ctx: AppContext) {
  const { twoFactor, guards, config } = ctx;
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

  app.post(
    '/login/two-factor',
    {
      schema: { body: twoFactorLoginBody, response: { 200: twoFactorLoginResponse } },
      config: { rateLimit },
    },
    async (request) => {
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
      return {
        success: true as const,
        message: SERVER_MESSAGES.loggedIn,
        data: { ...done.session, ...(done.recoveryCodes ? { recoveryCodes: done.recoveryCodes } : {}) },
      };
    },
  );

  const onRequest = guards.requireAuth;

  app.post(
    '/two-factor/setup',
    {
      onRequest,
      schema: { body: twoFactorSetupBody, response: { 200: twoFactorSetupResponse } },
      config: { rateLimit },
    },
    async (request) => ({
      success: true as const,
      message: TWO_FACTOR_MESSAGES.setupStarted,
      data: await twoFactor.startSetup(caller(request).userId, request.body.password),
    }),
  );

  app.post(
    '/two-factor/enable',
    {
      onRequest,
      schema: { body: twoFactorEnableBody, response: { 200: twoFactorCodesResponse } },
      config: { rateLimit },
    },
    async (request) => {
      const data = await audited(request, 'two-factor-enable', () =>
        twoFactor.enable(caller(request), request.body.code),
      );
      await ctx.audit.record(request, { action: 'two-factor-enable' });
      return { success: true as const, message: TWO_FACTOR_MESSAGES.enabled, data };
    },
  );

  app.post(
    '/two-factor/disable',
    {
      onRequest,
      schema: { body: twoFactorDisableBody, response: { 200: profileResponse } },
      config: { rateLimit },
    },
    async (request) => {
      const { password, code } = request.body;
      const user = await audited(request, 'two-factor-disable', () =>
        twoFactor.disable(caller(request).userId, password, code),
      );
      await ctx.audit.record(request, { action: 'two-factor-disable' });
      return { success: true as const, message: TWO_FACTOR_MESSAGES.disabled, data: { user } };
    },
  );

  app.post(
    '/two-factor/recovery-codes',
    {
      onRequest,
      schema: { body: recoveryCodesBody, response: { 200: twoFactorCodesResponse } },
      config: { rateLimit },
    },
    async (request) => {
      const data = await audited(request, 'recovery-codes-renew', () =>
        twoFactor.renewRecoveryCodes(caller(request).userId, request.body.code),
      );
      await ctx.audit.record(request, { action: 'recovery-codes-renew' });
      return { success: true as const, message: TWO_FACTOR_MESSAGES.recoveryCodesRenewed, data };
    },
  );
}
