import { contracts } from '@vitalwatch/shared';
import { caller } from '../../auth/plugin.ts';
import type { AppContext, AppInstance } from '../../context.ts';
import { serveContracts, userAuthHooks } from '../../http/contract-routes.ts';

/** `contracts.admin`: platform figures and users (the device routes live in the device module). */
export async function adminRoutes(app: AppInstance, ctx: AppContext) {
  const { admin, systemStatus: status } = ctx;
  serveContracts(app, userAuthHooks(ctx.guards), contracts.admin, {
    stats: () => admin.stats(),
    userGrowth: (request) => admin.userGrowth(request.body?.timeZone),
    systemStatus: () => status.check(),
    users: async (request) => ({ users: await admin.listUsers(request.body?.isUser === true) }),
    addUser: async (request) => {
      const user = await admin.addUser(request.body);
      await ctx.audit.record(request, {
        action: 'user-create',
        targetType: 'user',
        targetId: user._id,
        detail: { username: user.username, role: user.role },
      });
      return { user };
    },
    editUser: async (request) => {
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
      return { user };
    },
    resetPassword: async (request) => {
      await admin.resetPassword(request.params.id, request.body.newPassword);
      await ctx.audit.record(request, {
        action: 'password-reset',
        targetType: 'user',
        targetId: request.params.id,
      });
    },
    deleteUser: async (request) => {
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
    },
  });
}
