import {
  alertEmailsBody,
  authResponse,
  changePasswordBody,
  changePasswordResponse,
  loginBody,
  loginResponse,
  messageOnly,
  profileResponse,
  quietHoursBody,
  refreshBody,
  refreshResponse,
  SERVER_MESSAGES,
  saveFcmTokenBody,
  signupBody,
  TWO_FACTOR_MESSAGES,
  temperatureUnitBody,
  UNIT_MESSAGES,
  updateNameBody,
} from '@vitalwatch/shared';
import { z } from 'zod';
import { caller } from '../../auth/plugin.ts';
import { DEFAULT_SIGNUPS_PER_HOUR } from '../../config.ts';
import type { AppContext, AppInstance } from '../../context.ts';
import { isDomainError, isRefusal } from '../../errors.ts';
import { SIGN_OUT_CLEAR_SITE_DATA } from '../../http/header-rules.ts';
import { twoFactorRoutes } from './two-factor-routes.ts';

export async function userRoutes(app: AppInstance, ctx: AppContext) {
  const { users, guards, config } = ctx;

  app.post(
    '/create',
    {
      schema: { body: signupBody, response: { 201: authResponse } },
      config: {
        rateLimit: {
          max: config.signupsPerAddressPerHour ?? DEFAULT_SIGNUPS_PER_HOUR,
          timeWindow: 3_600_000,
        },
      },
    },
    async (request, reply) => {
      const session = await users.signup(request.body.user);
      await ctx.audit.record(request, {
        action: 'sign-up',
        actorId: session.user._id,
        targetType: 'user',
        targetId: session.user._id,
      });
      return reply.code(201).send({ success: true, message: SERVER_MESSAGES.userCreated, data: session });
    },
  );

  app.post(
    '/login',
    {
      schema: { body: loginBody, response: { 200: loginResponse } },
      config: { rateLimit: { max: config.loginLimits.perIpPerMinute, timeWindow: 60_000 } },
    },
    async (request) => {
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
        return { success: true as const, message, data: result };
      }
      await ctx.audit.record(request, { action: 'sign-in', actorId: user.id });
      return { success: true as const, message: SERVER_MESSAGES.loggedIn, data: result.session };
    },
  );

  await twoFactorRoutes(app, ctx);

  app.post(
    '/refresh',
    {
      schema: { body: refreshBody, response: { 200: refreshResponse } },
      config: { rateLimit: { max: config.loginLimits.perIpPerMinute, timeWindow: 60_000 } },
    },
    async (request) => ({
      success: true as const,
      message: SERVER_MESSAGES.tokensRefreshed,
      data: await users.refresh(request.body.refreshToken),
    }),
  );

  app.get(
    '/profile',
    { onRequest: guards.requireAuth, schema: { response: { 200: profileResponse } } },
    async (request) => ({
      success: true as const,
      message: SERVER_MESSAGES.profile,
      data: { user: await users.profile(caller(request).userId) },
    }),
  );

  app.post(
    '/logout',
    {
      onRequest: guards.requireAuth,
      schema: {
        body: z.object({ refreshToken: z.string().max(200).optional() }).nullish(),
        response: { 200: messageOnly },
      },
    },
    async (request, reply) => {
      await users.logout(caller(request), request.body?.refreshToken);
      await ctx.audit.record(request, { action: 'sign-out' });
      reply.header('clear-site-data', SIGN_OUT_CLEAR_SITE_DATA);
      return { success: true as const, message: SERVER_MESSAGES.loggedOut };
    },
  );

  app.post(
    '/update-name',
    { onRequest: guards.requireAuth, schema: { body: updateNameBody, response: { 200: profileResponse } } },
    async (request) => ({
      success: true as const,
      message: SERVER_MESSAGES.nameUpdated,
      data: { user: await users.updateName(caller(request).userId, request.body.fullName) },
    }),
  );

  app.post(
    '/alert-emails',
    { onRequest: guards.requireAuth, schema: { body: alertEmailsBody, response: { 200: profileResponse } } },
    async (request) => ({
      success: true as const,
      message: request.body.enabled
        ? SERVER_MESSAGES.alertEmailsEnabled
        : SERVER_MESSAGES.alertEmailsDisabled,
      data: { user: await users.setAlertEmails(caller(request).userId, request.body.enabled) },
    }),
  );

  app.post(
    '/temperature-unit',
    {
      onRequest: guards.requireAuth,
      schema: { body: temperatureUnitBody, response: { 200: profileResponse } },
    },
    async (request) => ({
      success: true as const,
      message: UNIT_MESSAGES.saved,
      data: { user: await users.setTemperatureUnit(caller(request).userId, request.body.unit) },
    }),
  );

  app.post(
    '/quiet-hours',
    { onRequest: guards.requireAuth, schema: { body: quietHoursBody, response: { 200: profileResponse } } },
    async (request) => ({
      success: true as const,
      message: request.body.quietHours ? SERVER_MESSAGES.quietHoursSaved : SERVER_MESSAGES.quietHoursOff,
      data: { user: await users.setQuietHours(caller(request).userId, request.body.quietHours) },
    }),
  );

  app.post(
    '/change-password',
    {
      onRequest: guards.requireAuth,
      schema: { body: changePasswordBody, response: { 200: changePasswordResponse } },
    },
    async (request) => {
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
      return { success: true as const, message: SERVER_MESSAGES.passwordChanged, data: { accessToken } };
    },
  );

  app.post(
    '/save-fcm-token',
    { onRequest: guards.requireAuth, schema: { body: saveFcmTokenBody, response: { 200: messageOnly } } },
    async (request) => {
      // Alerts will be sent there: only a public push service, never an address inside our network.
      await ctx.pushEndpoints.check(request.body.fcmToken.endpoint);
      await users.saveFcmToken(
        caller(request).userId,
        request.body.fcmToken,
        request.headers['user-agent'] ?? null,
      );
      return { success: true as const, message: SERVER_MESSAGES.fcmTokenSaved };
    },
  );
}
