import { type AuditAction, CIRCLE_MESSAGES, contracts } from '@vitalwatch/shared';
import type { FastifyRequest } from 'fastify';
import { caller } from '../../auth/plugin.ts';
import type { AppContext, AppInstance } from '../../context.ts';
import { said, serveContracts, userAuthHooks } from '../../http/contract-routes.ts';
import type { CircleChange } from './service.ts';

/** Guessing tokens is bounded like the share links' readers: per address. */
const TOKEN_RATE = { max: 30, timeWindow: 60_000 };

/**
 * `contracts.circle`: a device's care circle, run by its owners; `contracts.adminCircle`: the same
 * circle for an admin, who may set anyone's role. Every change is in the audit log.
 */
export async function circleRoutes(app: AppInstance, ctx: AppContext) {
  const { circles } = ctx;
  const audited = async (
    request: FastifyRequest,
    action: AuditAction,
    deviceId: string,
    change: CircleChange,
  ) => {
    await ctx.audit.record(request, {
      action,
      targetType: 'device',
      targetId: deviceId,
      detail: change.detail,
    });
    return { circle: change.circle };
  };
  const me = (request: FastifyRequest) => caller(request).userId;

  serveContracts(app, userAuthHooks(ctx.guards), contracts.circle, {
    list: async (request) => ({ circle: await circles.circle(me(request), request.params.deviceId) }),

    invite: async (request) => {
      const { deviceId } = request.params;
      return audited(
        request,
        'circle-invite',
        deviceId,
        await circles.invite(me(request), deviceId, request.body),
      );
    },

    revoke: async (request) => {
      const { deviceId } = request.params;
      const change = await circles.revoke(me(request), deviceId, request.body.invitationId);
      return audited(request, 'circle-invite-revoke', deviceId, change);
    },

    changeRole: async (request) => {
      const { deviceId } = request.params;
      return audited(
        request,
        'circle-role',
        deviceId,
        await circles.changeRole(me(request), deviceId, request.body),
      );
    },

    remove: async (request) => {
      const { deviceId } = request.params;
      const change = await circles.remove(me(request), deviceId, request.body.userId);
      const data = await audited(request, change.left ? 'circle-leave' : 'circle-remove', deviceId, change);
      return change.left ? said(CIRCLE_MESSAGES.left, data) : data;
    },

    confirm: async (request) => {
      const { deviceId } = request.params;
      return audited(
        request,
        'circle-confirm',
        deviceId,
        await circles.confirm(me(request), deviceId, request.body.userId),
      );
    },

    regenerateCode: async (request) => {
      const { deviceId } = request.params;
      const activationCode = await circles.regenerateCode(me(request), deviceId);
      await ctx.audit.record(request, {
        action: 'device-code-regenerate',
        targetType: 'device',
        targetId: deviceId,
        detail: { code: 'activation code', by: 'owner' },
      });
      return { activationCode };
    },

    invitation: {
      rateLimit: TOKEN_RATE,
      handler: async (request) => ({ invitation: await circles.preview(request.body.token) }),
    },

    accept: {
      rateLimit: TOKEN_RATE,
      handler: async (request) => {
        const joined = await circles.accept(me(request), request.body.token);
        await ctx.audit.record(request, {
          action: 'circle-join',
          targetType: 'device',
          targetId: joined.deviceId,
          detail: { by: 'invitation', role: joined.role },
        });
        return { deviceId: joined.deviceId };
      },
    },

    askAgain: {
      rateLimit: TOKEN_RATE,
      handler: async (request) => circles.askAgain(request.body.token),
    },
  });

  serveContracts(app, userAuthHooks(ctx.guards), contracts.adminCircle, {
    list: async (request) => ({ circle: await circles.circleForAdmin(request.params.deviceId) }),

    changeRole: async (request) => {
      const { deviceId } = request.params;
      return audited(
        request,
        'circle-role',
        deviceId,
        await circles.changeRoleAsAdmin(deviceId, request.body),
      );
    },
  });
}
