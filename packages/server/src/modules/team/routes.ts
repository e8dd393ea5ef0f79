import { contracts } from '@vitalwatch/shared';
import type { FastifyRequest } from 'fastify';
import type { AppContext, AppInstance } from '../../context.ts';
import { serveContracts, userAuthHooks } from '../../http/contract-routes.ts';
import type { TeamChange } from './service.ts';

/** `contracts.team`: care teams, admins only; every change is audit-logged. */
export async function teamRoutes(app: AppInstance, ctx: AppContext) {
  const { teams } = ctx;

  /** One audit entry per kind of change: a rename, the devices, the members. */
  const audit = async (request: FastifyRequest, change: TeamChange) => {
    const { team, previousName, devices, members } = change;
    const target = { targetType: 'team' as const, targetId: team._id };
    if (previousName !== team.name) {
      await ctx.audit.record(request, {
        action: 'team-rename',
        ...target,
        detail: { from: previousName, to: team.name },
      });
    }
    if (devices.added.length + devices.removed.length > 0) {
      await ctx.audit.record(request, {
        action: 'team-devices',
        ...target,
        detail: { team: team.name, added: devices.added.join(','), removed: devices.removed.join(',') },
      });
    }
    const changed = [...members.added, ...members.removed, ...members.roleChanged];
    if (changed.length > 0) {
      const backups = team.members.filter((m) => m.role === 'backup').map((m) => m.userId);
      await ctx.audit.record(request, {
        action: 'team-members',
        ...target,
        detail: {
          team: team.name,
          added: members.added.join(','),
          removed: members.removed.join(','),
          backupUsers: backups.join(','),
        },
      });
    }
  };

  serveContracts(app, userAuthHooks(ctx.guards), contracts.team, {
    list: async () => ({ teams: await teams.list() }),
    create: async (request) => {
      const change = await teams.create(request.body);
      await ctx.audit.record(request, {
        action: 'team-create',
        targetType: 'team',
        targetId: change.team._id,
        detail: { team: change.team.name },
      });
      await audit(request, { ...change, previousName: change.team.name });
      return { team: change.team };
    },
    update: async (request) => {
      const change = await teams.update(request.params.id, request.body);
      await audit(request, change);
      return { team: change.team };
    },
    remove: async (request) => {
      const team = await teams.remove(request.params.id);
      await ctx.audit.record(request, {
        action: 'team-delete',
        targetType: 'team',
        targetId: team._id,
        detail: { team: team.name, devices: team.deviceIds.length, members: team.members.length },
      });
    },
  });
}
