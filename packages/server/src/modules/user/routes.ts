import { CHANNEL_HEALTH_MESSAGES, contracts, SERVER_MESSAGES, TWO_FACTOR_MESSAGES } from '@vitalwatch/shared';
import { caller } from '../../auth/plugin.ts';
import { DEFAULT_SIGNUPS_PER_HOUR } from '../../config.ts';
import type { AppContext, AppInstance } from '../../context.ts';
import { isDomainError, isRefusal } from '../../errors.ts';
import { said, serveContracts, userAuthHooks } from '../../http/contract-routes.ts';
import { SIGN_OUT_CLEAR_SITE_DATA } from '../../http/header-rules.ts';

/** `contracts.user`: sign-up, sign-in, the session and the caller's own settings. */
export async function userRoutes(app: AppInstance, ctx: AppContext) {
  const { users, config } = ctx;
  const perMinute = { max: config.loginLimits.perIpPerMinute, timeWindow: 60_000 };

  serveContracts(app, userAuthHooks(ctx.guards), contracts.user, {
    signUp: {
      rateLimit: { max: config.signupsPerAddressPerHour ?? DEFAULT_SIGNUPS_PER_HOUR, timeWindow: 3_600_000 },
      handler: async (request) => {
        const session = await users.signup(request.body.user);
        await ctx.audit.record(request, {
          action: 'sign-up',
          actorId: session.user._id,
          targetType: 'user',
          targetId: session.user._id,
        });
        // The new address gets its verification link; alert e-mails wait for it.
        await ctx.account.sendVerification(session.user._id);
        return session;
      },
    },

    logIn: {
      rateLimit: perMinute,
      handler: async (request) => {
        const typed = request.body.user.username.trim();
        const user = await users.checkPassword(request.body.user).catch(async (err: unknown) => {
          if (isDomainError(err, 'unauthenticated', 'rateLimited')) {
            await ctx.audit.record(request, {
              action: 'sign-in',
              outcome: 'failure',
              actorId: null,
              actorName: typed,
              detail: { reason: err.code === 'rateLimited' ? 'locked out' : 'wrong name or password' },
            });
          }
          throw err;
        });
        const result = await ctx.twoFactor.afterPassword(user);
        if ('twoFactor' in result) {
          const message =
            result.twoFactor.mode === 'verify'
              ? TWO_FACTOR_MESSAGES.codeNeeded
              : TWO_FACTOR_MESSAGES.setupNeeded;
          return said(message, result);
        }
        await ctx.audit.record(request, { action: 'sign-in', actorId: user.id });
        return result.session;
      },
    },

    refresh: {
      rateLimit: perMinute,
      handler: async (request) => users.refresh(request.body.refreshToken),
    },

    getProfile: async (request) => ({ user: await users.profile(caller(request).userId) }),

    logOut: async (request, reply) => {
      await users.logout(caller(request), request.body?.refreshToken);
      await ctx.audit.record(request, { action: 'sign-out' });
      reply.header('clear-site-data', SIGN_OUT_CLEAR_SITE_DATA);
    },

    updateName: async (request) => ({
      user: await users.updateName(caller(request).userId, request.body.fullName),
    }),

    setAlertEmails: async (request) =>
      said(request.body.enabled ? SERVER_MESSAGES.alertEmailsEnabled : SERVER_MESSAGES.alertEmailsDisabled, {
        user: await users.setAlertEmails(caller(request).userId, request.body.enabled),
      }),

    setChannelChecks: async (request) =>
      said(request.body.enabled ? CHANNEL_HEALTH_MESSAGES.checksOn : CHANNEL_HEALTH_MESSAGES.checksOff, {
        user: await users.setChannelChecks(caller(request).userId, request.body.enabled),
      }),

    setTemperatureUnit: async (request) => ({
      user: await users.setTemperatureUnit(caller(request).userId, request.body.unit),
    }),

    setQuietHours: async (request) =>
      said(request.body.quietHours ? SERVER_MESSAGES.quietHoursSaved : SERVER_MESSAGES.quietHoursOff, {
        user: await users.setQuietHours(caller(request).userId, request.body.quietHours),
      }),

    changePassword: async (request) => {
      const { oldPassword, newPassword, refreshToken } = request.body;
      const { userId } = caller(request);
      const accessToken = await users
        .changePassword(userId, oldPassword, newPassword, refreshToken)
        .catch(async (err: unknown) => {
          if (isRefusal(err)) {
            await ctx.audit.record(request, {
              action: 'password-change',
              outcome: 'failure',
              detail: { reason: err.message },
            });
          }
          throw err;
        });
      await ctx.audit.record(request, { action: 'password-change' });
      return { accessToken };
    },

    saveFcmToken: async (request) => {
      // Alerts will be sent there: only a public push service, never an address inside our network.
      await ctx.pushEndpoints.check(request.body.fcmToken.endpoint);
      await users.saveFcmToken(
        caller(request).userId,
        request.body.fcmToken,
        request.headers['user-agent'] ?? null,
      );
    },
  });
}
