import {
  ADMIN_MESSAGES,
  addUserBody,
  adminStatsResponse,
  adminUserResponse,
  adminUsersResponse,
  allUsersBody,
  editUserBody,
  idParam,
  messageOnly,
  resetPasswordBody,
  systemStatusResponse,
  userGrowthBody,
  userGrowthResponse,
} from '@vitalwatch/shared';
import { caller } from '../../auth/plugin.ts';
import { guardEveryRoute } from '../../auth/requirement.ts';
import type { AppContext, AppInstance } from '../../context.ts';

/** `/api/v1/admin/*` for platform figures and users (the device routes live in the device module). */
export async function adminRoutes(app: AppInstance, ctx: AppContext) {
  const { admin, systemStatus: status } = ctx;
  // Before validation, so a guest gets 401 and a user 403 whatever they send.
  guardEveryRoute(app, ctx.guards.requireRole('admin'));

  app.post('/stats', { schema: { response: { 200: adminStatsResponse } } }, async () => ({
    success: true as const,
    message: ADMIN_MESSAGES.stats,
    data: await admin.stats(),
  }));

  app.post(
    '/user-growth',
    { schema: { body: userGrowthBody, response: { 200: userGrowthResponse } } },
    async (request) => ({
      success: true as const,
      message: ADMIN_MESSAGES.userGrowth,
      data: await admin.userGrowth(request.body?.timeZone),
    }),
  );

  app.post('/system-status', { schema: { response: { 200: systemStatusResponse } } }, async () => ({
    success: true as const,
    message: ADMIN_MESSAGES.systemStatus,
    data: await status.check(),
  }));

  app.post(
    '/all-users',
    { schema: { body: allUsersBody, response: { 200: adminUsersResponse } } },
    async (request) => ({
      success: true as const,
      message: ADMIN_MESSAGES.users,
      data: { users: await admin.listUsers(request.body?.isUser === true) },
    }),
  );

  app.post(
    '/add-user',
    { schema: { body: addUserBody, response: { 201: adminUserResponse } } },
    async (request, reply) => {
      const user = await admin.addUser(request.body);
      await ctx.audit.record(request, {
        action: 'user-create',
        targetType: 'user',
        targetId: user._id,
        detail: { username: user.username, role: user.role },
      });
      return reply.code(201).send({ success: true, message: ADMIN_MESSAGES.userAdded, data: { user } });
    },
  );

  app.post(
    '/edit-user/:id',
    { schema: { params: idParam, body: editUserBody, response: { 200: adminUserResponse } } },
    async (request) => {
      const { user, previousRole } = await admin
        .editUser(request.params.id, request.body)
        .catch(async (err) => {
          await ctx.audit.refused(request, err, {
            action: 'role-change',
            targetType: 'user',
            targetId: request.params.id,
            detail: { username: request.body.username, to: request.body.role },
          });
          throw err;
        });
      const target = { targetType: 'user' as const, targetId: user._id };
      await ctx.audit.record(request, {
        action: 'user-update',
        ...target,
        detail: { username: user.username },
      });
      if (previousRole !== user.role) {
        await ctx.audit.record(request, {
          action: 'role-change',
          ...target,
          detail: { username: user.username, from: previousRole, to: user.role },
        });
      }
      return { success: true as const, message: ADMIN_MESSAGES.userUpdated, data: { user } };
    },
  );

  app.post(
    '/reset-password/:id',
    { schema: { params: idParam, body: resetPasswordBody, response: { 200: messageOnly } } },
    async (request) => {
      await admin.resetPassword(request.params.id, request.body.newPassword);
      await ctx.audit.record(request, {
        action: 'password-reset',
        targetType: 'user',
        targetId: request.params.id,
      });
      return { success: true as const, message: ADMIN_MESSAGES.passwordReset };
    },
  );

  app.post(
    '/delete-user/:id',
    { schema: { params: idParam, response: { 200: messageOnly } } },
    async (request) => {
      const target = {
        action: 'user-delete' as const,
        targetType: 'user' as const,
        targetId: request.params.id,
      };
      await admin.deleteUser(caller(request).userId, request.params.id).catch(async (err) => {
        await ctx.audit.refused(request, err, target);
        throw err;
      });
      await ctx.audit.record(request, target);
      return { success: true as const, message: ADMIN_MESSAGES.userDeleted };
    },
  );
}
