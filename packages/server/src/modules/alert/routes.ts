import {
  ALERT_MESSAGES,
  type AlertLifecycle,
  acknowledgeByTokenBody,
  alertActionBody,
  alertAllBody,
  alertIdParams,
  alertLatestParams,
  alertLifecycleResponse,
  alertsPageResponse,
  alertsResponse,
  alertTimelineResponse,
  markReadBody,
  markReadResponse,
  snoozeBody,
  snoozeResponse,
  snoozesResponse,
  unsnoozeBody,
} from '@vitalwatch/shared';
import { caller } from '../../auth/plugin.ts';
import type { AppContext, AppInstance } from '../../context.ts';

/** `/api/v1/alert/*`: the caller's alerts. */
export async function alertRoutes(app: AppInstance, ctx: AppContext) {
  const { alerts } = ctx;
  const onRequest = ctx.guards.requireAuth;

  app.post(
    '/latest/:count',
    { onRequest, schema: { params: alertLatestParams, response: { 200: alertsResponse } } },
    async (request) => ({
      success: true as const,
      message: ALERT_MESSAGES.fetched,
      data: { alerts: await alerts.latest(caller(request).userId, request.params.count) },
    }),
  );

  app.post(
    '/all',
    { onRequest, schema: { body: alertAllBody, response: { 200: alertsPageResponse } } },
    async (request) => ({
      success: true as const,
      message: ALERT_MESSAGES.fetched,
      data: await alerts.page(caller(request).userId, request.body),
    }),
  );

  app.post(
    '/mark-read',
    { onRequest, schema: { body: markReadBody, response: { 200: markReadResponse } } },
    async (request) => ({
      success: true as const,
      message: ALERT_MESSAGES.marked,
      data: { alerts: await alerts.markRead(caller(request).userId, request.body.data.alerts) },
    }),
  );

  const lifecycleSchema = {
    params: alertIdParams,
    body: alertActionBody,
    response: { 200: alertLifecycleResponse },
  };
  app.post('/acknowledge/:alertId', { onRequest, schema: lifecycleSchema }, async (request) => {
    const { alert, changed } = await alerts.acknowledge(
      caller(request).userId,
      request.params.alertId,
      request.body?.note,
    );
    if (changed)
      await ctx.audit.record(request, {
        action: 'alert-acknowledge',
        targetType: 'alert',
        targetId: alert._id,
      });
    return { success: true as const, message: acknowledgedMessage(alert, changed), data: { alert } };
  });

  // No sign-in: the token is the permission, for this one alert and user. Limited per address.
  app.post(
    '/acknowledge-by-token',
    {
      config: { rateLimit: { max: 60, timeWindow: 60_000 } },
      schema: { body: acknowledgeByTokenBody, response: { 200: alertLifecycleResponse } },
    },
    async (request) => {
      const { alert, changed } = await alerts.acknowledgeByToken(request.body.token);
      if (changed) {
        // Signed in by the notification's token, not a session: the name is the one it acknowledged as.
        await ctx.audit.record(request, {
          action: 'alert-acknowledge',
          actorId: null,
          actorName: alert.acknowledged?.by ?? null,
          targetType: 'alert',
          targetId: alert._id,
          detail: { via: 'notification' },
        });
      }
      return { success: true as const, message: acknowledgedMessage(alert, changed), data: { alert } };
    },
  );

  app.post(
    '/timeline/:alertId',
    { onRequest, schema: { params: alertIdParams, response: { 200: alertTimelineResponse } } },
    async (request) => ({
      success: true as const,
      message: ALERT_MESSAGES.timelineFetched,
      data: { timeline: await alerts.timeline(caller(request).userId, request.params.alertId) },
    }),
  );

  app.post('/resolve/:alertId', { onRequest, schema: lifecycleSchema }, async (request) => {
    const { alert, changed } = await alerts.resolve(
      caller(request).userId,
      request.params.alertId,
      request.body?.note,
    );
    if (changed)
      await ctx.audit.record(request, { action: 'alert-resolve', targetType: 'alert', targetId: alert._id });
    return {
      success: true as const,
      message: changed ? ALERT_MESSAGES.resolved : ALERT_MESSAGES.alreadyResolved,
      data: { alert },
    };
  });

  app.post(
    '/snooze',
    { onRequest, schema: { body: snoozeBody, response: { 200: snoozeResponse } } },
    async (request) => {
      const { deviceId, alertType, minutes } = request.body;
      return {
        success: true as const,
        message: ALERT_MESSAGES.snoozed,
        data: { snooze: await alerts.snooze(caller(request).userId, deviceId, alertType, minutes) },
      };
    },
  );

  app.post(
    '/unsnooze',
    { onRequest, schema: { body: unsnoozeBody, response: { 200: snoozesResponse } } },
    async (request) => {
      const { userId } = caller(request);
      await alerts.unsnooze(userId, request.body.deviceId, request.body.alertType);
      return {
        success: true as const,
        message: ALERT_MESSAGES.unsnoozed,
        data: { snoozes: await alerts.snoozes(userId) },
      };
    },
  );

  app.post('/snoozes', { onRequest, schema: { response: { 200: snoozesResponse } } }, async (request) => ({
    success: true as const,
    message: ALERT_MESSAGES.snoozesFetched,
    data: { snoozes: await alerts.snoozes(caller(request).userId) },
  }));
}

const acknowledgedMessage = (alert: AlertLifecycle, changed: boolean) =>
  changed
    ? ALERT_MESSAGES.acknowledged
    : alert.status === 'resolved'
      ? ALERT_MESSAGES.alreadyResolved
      : ALERT_MESSAGES.alreadyAcknowledged;
