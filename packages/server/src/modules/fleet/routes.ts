import { contracts } from '@vitalwatch/shared';
import type { AppContext, AppInstance } from '../../context.ts';
import { serveContracts, userAuthHooks } from '../../http/contract-routes.ts';

/** `contracts.fleet`: the paged forms the admin screens use. */
export async function fleetRoutes(app: AppInstance, ctx: AppContext) {
  const { fleet } = ctx;
  serveContracts(app, userAuthHooks(ctx.guards), contracts.fleet, {
    devices: (request) => fleet.devices(request.query),
    users: (request) => fleet.users(request.query),
    summary: () => fleet.summary(),
  });
}
