import { ALERT_MESSAGES, type AlertLifecycle, contracts } from '@vitalwatch/shared';
import { caller } from '../../auth/plugin.ts';
import type { AppContext, AppInstance } from '../../context.ts';
import { type ContractHandler, said, serveContracts, userAuthHooks } from '../../http/contract-routes.ts';

/** `contracts.alert`: the caller's alerts. */
export async function alertRoutes(app: AppInstance, ctx: AppContext) {
  const { alerts } = ctx;
  /** Acknowledge or resolve as the caller: the alert's shared state after, audited when it changed. */
  const act = async (action: 'acknowledge' | 'resolve', request: LifecycleRequest) => {
    const { alert, changed } = await alerts[action](
      caller(request).userId,
      request.params.alertId,
      request.body?.note,
    );
    if (changed)
      await ctx.audit.record(request, {
        action: `alert-${action}`,
        targetType: 'alert',
        targetId: alert._id,
      });
    return said(lifecycleMessage(action, alert, changed), { alert });
  };
  serveContracts(app, userAuthHooks(ctx.guards), contracts.alert, {
    latest: async (request) => ({
      alerts: await alerts.latest(caller(request).userId, request.params.count),
    }),
    page: async (request) => alerts.page(caller(request).userId, request.body),
    markRead: async (request) => ({
      alerts: await alerts.markRead(caller(request).userId, request.body.data.alerts),
    }),
    acknowledge: (request) => act('acknowledge', request),
    // Limited per address: a token is tried without a session.
    acknowledgeByToken: {
      rateLimit: { max: 60, timeWindow: 60_000 },
      handler: async (request) => {
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
        return said(acknowledgedMessage(alert, changed), { alert });
      },
    },
    timeline: async (request) => ({
      timeline: await alerts.timeline(caller(request).userId, request.params.alertId),
    }),
    resolve: (request) => act('resolve', request),
    snooze: async (request) => {
      const { deviceId, alertType, minutes } = request.body;
      return { snooze: await alerts.snooze(caller(request).userId, deviceId, alertType, minutes) };
    },
    unsnooze: async (request) => {
      const { userId } = caller(request);
      await alerts.unsnooze(userId, request.body.deviceId, request.body.alertType);
      return { snoozes: await alerts.snoozes(userId) };
    },
    snoozes: async (request) => ({ snoozes: await alerts.snoozes(caller(request).userId) }),
  });
}

type LifecycleRequest = Parameters<ContractHandler<typeof contracts.alert.acknowledge>>[0];

const acknowledgedMessage = (alert: AlertLifecycle, changed: boolean) =>
  changed
    ? ALERT_MESSAGES.acknowledged
    : alert.status === 'resolved'
      ? ALERT_MESSAGES.alreadyResolved
      : ALERT_MESSAGES.alreadyAcknowledged;

const lifecycleMessage = (action: 'acknowledge' | 'resolve', alert: AlertLifecycle, changed: boolean) =>
  action === 'acknowledge'
    ? acknowledgedMessage(alert, changed)
    : changed
      ? ALERT_MESSAGES.resolved
      : ALERT_MESSAGES.alreadyResolved;
