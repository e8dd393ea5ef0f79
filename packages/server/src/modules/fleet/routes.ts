import {
  FLEET_MESSAGES,
  fleetDevicePageResponse,
  fleetDeviceQuery,
  fleetSummaryResponse,
  fleetUserPageResponse,
  fleetUserQuery,
} from '@vitalwatch/shared';
import { guardEveryRoute } from '../../auth/requirement.ts';
import type { AppContext, AppInstance } from '../../context.ts';

/** `GET /api/v1/admin/devices`, `/users`, `/fleet-summary`: the paged forms the admin screens use. */
export async function fleetRoutes(app: AppInstance, ctx: AppContext) {
  const { fleet } = ctx;
  // Before validation, so a guest gets 401 and a user 403 whatever they send.
  guardEveryRoute(app, ctx.guards.requireRole('admin'));

  app.get(
    '/devices',
    { schema: { querystring: fleetDeviceQuery, response: { 200: fleetDevicePageResponse } } },
    async (request) => ({
      success: true as const,
      message: FLEET_MESSAGES.devices,
      data: await fleet.devices(request.query),
    }),
  );

  app.get(
    '/users',
    { schema: { querystring: fleetUserQuery, response: { 200: fleetUserPageResponse } } },
    async (request) => ({
      success: true as const,
      message: FLEET_MESSAGES.users,
      data: await fleet.users(request.query),
    }),
  );

  app.get('/fleet-summary', { schema: { response: { 200: fleetSummaryResponse } } }, async () => ({
    success: true as const,
    message: FLEET_MESSAGES.summary,
    data: await fleet.summary(),
  }));
}
