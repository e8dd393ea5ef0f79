import {
  ALERTS_PAGE_PATH,
  DEVICES_PAGE_PATH,
  INVITATION_PAGE_PATH,
  PROFILE_PAGE_PATH,
} from '@vitalwatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { sharedFailureThrottle } from './auth/failure-throttle.ts';
import { authGuards } from './auth/plugin.ts';
import { Sealer } from './auth/sealer.ts';
import { AlertActionTokens, PushReceiptTokens, TokenService } from './auth/tokens.ts';
import { RecoveryCodeHasher, TwoFactorChallenges } from './auth/two-factor.ts';
import { backupRoutes } from './backup/routes.ts';
import { BackupService } from './backup/service.ts';
import { type ChannelCheckOptions, ChannelChecks } from './channel-health/checks.ts';
import type { AppConfig } from './config.ts';
import type { AppContext, AppInstance } from './context.ts';
import type { Database, Db } from './db/index.ts';
import { DEFAULT_RETENTION, TimePartitions } from './db/partitions.ts';
import { HeavyReads } from './http/heavy-reads.ts';
import { EventBus } from './lib/events.ts';
import { settledWithin } from './lib/time-limit.ts';
import { AlertMailer, type AlertMailerOptions } from './mail/alert-mailer.ts';
import { createMailer } from './mail/mailer.ts';
import { registerMetrics } from './metrics/prometheus.ts';
import { dataExport } from './modules/account/data-export.ts';
import { accountRoutes } from './modules/account/routes.ts';
import { AccountService } from './modules/account/service.ts';
import { adminRoutes } from './modules/admin/routes.ts';
import { AdminService } from './modules/admin/service.ts';
import { alertRoutes } from './modules/alert/routes.ts';
import { AlertEngine, AlertService } from './modules/alert/service.ts';
import { auditRoutes } from './modules/audit/routes.ts';
import { AuditLog } from './modules/audit/service.ts';
import { boardRoutes } from './modules/board/routes.ts';
import { BoardService } from './modules/board/service.ts';
import { circleRoutes } from './modules/circle/routes.ts';
import { CircleService } from './modules/circle/service.ts';
import { ActivationAttempts } from './modules/device/activation-attempts.ts';
import { adminDeviceRoutes } from './modules/device/admin-routes.ts';
import { deviceRoutes } from './modules/device/routes.ts';
import { DeviceService } from './modules/device/service.ts';
import { exportRoutes } from './modules/export/routes.ts';
import { ExportService } from './modules/export/service.ts';
import { fhirOtherVersions } from './modules/fhir/http.ts';
import { fhirRoutes } from './modules/fhir/routes.ts';
import { FhirService } from './modules/fhir/service.ts';
import { fleetRoutes } from './modules/fleet/routes.ts';
import { FleetService } from './modules/fleet/service.ts';
import { gatewayRoutes } from './modules/gateway/routes.ts';
import { GatewayService } from './modules/gateway/service.ts';
import { adminIngestRoutes } from './modules/ingest/admin-routes.ts';
import { DeviceSetupService } from './modules/ingest/device-setup.ts';
import { ingestRoutes } from './modules/ingest/routes.ts';
import { IngestService } from './modules/ingest/service.ts';
import { pushRoutes } from './modules/push-subscriptions/routes.ts';
import { PushBrowsersService } from './modules/push-subscriptions/service.ts';
import { readingsRoutes } from './modules/readings/routes.ts';
import { ReadingsService } from './modules/readings/service.ts';
import { adminShareRoutes } from './modules/share/admin-routes.ts';
import { shareRoutes } from './modules/share/routes.ts';
import { ShareService } from './modules/share/service.ts';
import { teamRoutes } from './modules/team/routes.ts';
import { TeamService } from './modules/team/service.ts';
import { userRoutes } from './modules/user/routes.ts';
import { UserService } from './modules/user/service.ts';
import { twoFactorRoutes } from './modules/user/two-factor-routes.ts';
import { TwoFactorService, twoFactorRule } from './modules/user/two-factor-service.ts';
import { MqttGateway } from './mqtt/gateway.ts';
import { registerMqtt } from './mqtt/index.ts';
import { NotificationOutbox } from './notification-outbox/outbox.ts';
import { type HostLookup, PushEndpointGuard } from './push-delivery/endpoint-guard.ts';
import { PushService, type PushServiceOptions } from './push-delivery/push-service.ts';
import { type Realtime, registerRealtime } from './realtime/socket-server.ts';
import { smsRoutes } from './sms/routes.ts';
import { SmsService } from './sms/service.ts';
import { SmsChannel, type SmsChannelOptions } from './sms/sms-channel.ts';
import { type TwilioConfig, TwilioSender, type TwilioSenderOptions } from './sms/twilio.ts';
import { EventLoopMonitor } from './system-status/event-loop-monitor.ts';
import { SystemStatusService } from './system-status/system-status.ts';
import { adminWebhookRoutes } from './webhooks/admin-routes.ts';
import { webhookRoutes } from './webhooks/routes.ts';
import { WebhookService } from './webhooks/service.ts';
import { WebhookChannel, type WebhookOptions } from './webhooks/webhook-channel.ts';

/**
 * The composition root: every service is built here, and every route prefix registered here.
 * Modules receive what they use through the context; none builds another's service.
 */

export interface ComposeOptions {
  /** Push sending settings, e.g. the CA of a test's local push service. */
  push?: Partial<PushServiceOptions>;
  /** Alert mail retry settings (tests shorten the waits). */
  mail?: Partial<AlertMailerOptions>;
  /** Webhook sending settings (tests: their receiver's CA, short waits). */
  webhooks?: Partial<WebhookOptions>;
  /** Channel health's daily checks (tests: no timer, `sweep` called by hand). */
  channelChecks?: Partial<ChannelCheckOptions>;
  /** SMS sending settings (tests: their Twilio-compatible receiver's CA, short waits). */
  sms?: Partial<SmsChannelOptions & TwilioSenderOptions>;
  /** How push endpoint host names resolve (default: the system resolver; tests answer from a table). */
  lookupHost?: HostLookup;
}

const DEFAULT_OFFLINE_SWEEP_MS = 30_000;
/** Password reset requests per typed address: 5 an hour (answered 429 whether or not an account has it). */
const RESET_PER_ADDRESS = { limit: 5, windowMs: 3_600_000 };
/** Reset and verification mails per account: 5 a day (past it the answer stays the same, no mail goes). */
const MAILS_PER_ACCOUNT = { limit: 5, windowMs: 86_400_000 };
/** Escalation steps are due on the minute; a second late at most. */
const DEFAULT_ESCALATION_MS = 1000;
/** Partitions are made weeks ahead; an hourly look keeps that true and retention within the hour. */
const PARTITION_MAINTENANCE_MS = 3_600_000;
/** The longest one shutdown step waits (see `stop` in `registerRoutes`). */
const SHUTDOWN_STEP_MS = 5_000;
/** The outbox bounds its own last batch (10 s): this only catches a hang past that. */
const OUTBOX_STOP_BOUND_MS = 12_000;

/** Build every service of the server, wired to each other; nothing runs until `registerRoutes`. */
export function composeServices(
  config: AppConfig,
  database: Database,
  redis: Redis | undefined,
  log: FastifyBaseLogger,
  options: ComposeOptions = {},
): AppContext {
  const { db } = database;
  const tokens = new TokenService(config.jwtSecret);
  const { perAccountFailures, perAccountWindowMs } = config.loginLimits;
  const throttle = sharedFailureThrottle(
    redis,
    'login-fail',
    { limit: perAccountFailures, windowMs: perAccountWindowMs },
    log,
  );
  const alertActions = new AlertActionTokens(config.jwtSecret);
  const pushEndpoints = new PushEndpointGuard(config.pushEndpoints, options.lookupHost);
  const pushBrowsers = new PushBrowsersService(db);
  const pushReceipts = new PushReceiptTokens(config.jwtSecret);
  const push = new PushService(
    pushBrowsers,
    config.vapid,
    alertActions,
    pushReceipts,
    log.child({ module: 'push' }),
    pushEndpoints,
    options.push,
  );
  const mailer = createMailer(config);
  const appUrl = config.publicUrl ?? `http://${config.host}:${config.port}`;
  const alertMailer = new AlertMailer(
    mailer,
    `${appUrl}${ALERTS_PAGE_PATH}`,
    log.child({ module: 'mail' }),
    options.mail,
  );
  // Webhooks go to any public host (not only push services), under the push endpoints' address rules.
  const webhookChannel = new WebhookChannel(
    db,
    new PushEndpointGuard(
      { allowedHosts: 'any', testOnlyHosts: config.pushEndpoints?.testOnlyHosts ?? [] },
      options.lookupHost,
    ),
    `${appUrl}${ALERTS_PAGE_PATH}`,
    log.child({ module: 'webhooks' }),
    options.webhooks,
  );
  const sms = config.twilio
    ? {
        channel: smsChannel(
          db,
          config.twilio,
          config.vapid !== undefined,
          `${appUrl}${ALERTS_PAGE_PATH}`,
          log,
          options.sms,
        ),
        authToken: config.twilio.authToken,
      }
    : undefined;
  const events = new EventBus();
  const twoFactorPolicy = { requireForAdmins: config.requireAdminTwoFactor ?? false };
  const users = new UserService(db, tokens, throttle, events, twoFactorRule(twoFactorPolicy));
  const twoFactor = new TwoFactorService({
    db,
    users,
    tokens,
    secrets: new Sealer(config.jwtSecret, 'totp-secret'),
    recoveryHasher: new RecoveryCodeHasher(config.jwtSecret),
    challenges: new TwoFactorChallenges(config.jwtSecret),
    throttle,
    policy: twoFactorPolicy,
  });

  const account = new AccountService({
    db,
    users,
    twoFactor,
    events,
    mailer,
    appUrl,
    perAddress: sharedFailureThrottle(redis, 'reset-address', RESET_PER_ADDRESS, log),
    perAccount: sharedFailureThrottle(redis, 'account-mail', MAILS_PER_ACCOUNT, log),
    log: log.child({ module: 'account' }),
  });

  const alertEngine = new AlertEngine(db, events, log.child({ module: 'alerts' }));
  const partitions = new TimePartitions(db, config.retentionDays ?? DEFAULT_RETENTION);
  const devices = new DeviceService(db, ActivationAttempts.shared(redis, log), events);
  const circles = new CircleService({
    db,
    mailer,
    events,
    devices,
    links: {
      invitation: (token) => `${appUrl}${INVITATION_PAGE_PATH}/${token}`,
      devices: `${appUrl}${DEVICES_PAGE_PATH}`,
    },
  });
  const readings = new ReadingsService({
    db,
    engine: alertEngine,
    partitions,
    events,
    log: log.child({ module: 'readings' }),
  });
  const gateways = new GatewayService(db);
  const ingest = new IngestService(
    {
      credentials: devices.credentials,
      gateways,
      readings,
      engine: alertEngine,
      partitions,
      log: log.child({ module: 'ingest' }),
    },
    {
      // PGlite runs one statement at a time; a server overlaps one batch's commit with the next
      // insert. Two, measured against one and four (`npm run bench`): batched HTTP 22.5k / 32.1k /
      // 28.7k readings/s, MQTT 16.2k / 15.9k / 15.1k; more batches in flight only make them smaller.
      concurrency: database.kind === 'postgres' ? 2 : 1,
      maxQueuedRows: config.ingest?.maxQueuedRows,
    },
  );
  const mqtt = new MqttGateway(config);
  const eventLoop = new EventLoopMonitor();
  const exporter = new ExportService(db, users);
  const fhir = new FhirService(db, users);
  const alerts = new AlertService(db, alertEngine, alertActions, users);
  const vapid = config.vapid
    ? { publicKey: config.vapid.publicKey, privateKey: config.vapid.privateKey }
    : null;
  const backups = new BackupService(database, { jwtSecret: config.jwtSecret, vapid }, config.dataDir);

  return {
    config,
    database,
    db,
    redis,
    tokens,
    alertActions,
    guards: authGuards(
      {
        // One process (no Redis): every session end and role change happens here, and the cache
        // forgets at once. With Redis there are others, whose logouts this one would hear of only
        // a moment later: each request then asks the database, and a revocation holds everywhere at once.
        sessionUser: config.redisUrl
          ? (id, sessionId) => users.sessionUser(id, sessionId)
          : (id, sessionId) => users.recentSessionUser(id, sessionId),
      },
      tokens,
      twoFactor.mayOmit,
      (auth, request) => account.seen(auth, request.headers['user-agent'], request.ip),
    ),
    users,
    twoFactor,
    account,
    accountData: (userId, fhirRoot) => dataExport({ db, users, exports: exporter, fhir }, userId, fhirRoot),
    events,
    mqtt,
    ingest,
    deviceSetup: new DeviceSetupService({ devices, readings, ingest, mqtt }),
    partitions,
    alertEngine,
    devices,
    readings,
    exports: exporter,
    shares: new ShareService(db, readings, exporter),
    gateways,
    fhir,
    alerts,
    board: new BoardService(db, alerts, events),
    admin: new AdminService(db, users, events),
    teams: new TeamService(db, events),
    circles,
    fleet: new FleetService(db),
    systemStatus: new SystemStatusService({
      ping: () => database.ping(),
      monitor: eventLoop,
      push,
      vapidKeysPresent: config.vapid !== undefined,
      smtpUrl: config.smtpUrl,
      dataDir: config.dataDir,
      backups: () => backups.scheduled,
    }),
    eventLoop,
    heavyReads: new HeavyReads(config.heavyReads),
    push,
    pushBrowsers,
    pushReceipts,
    pushEndpoints,
    outbox: new NotificationOutbox(
      db,
      [push, alertMailer, webhookChannel, ...(sms ? [sms.channel] : [])],
      log.child({ module: 'notification-outbox' }),
      config.notifications,
    ),
    alertMailer,
    webhooks: new WebhookService(db, webhookChannel),
    webhookChannel,
    channelChecks: new ChannelChecks(
      db,
      push,
      webhookChannel,
      `${appUrl}${PROFILE_PAGE_PATH}`,
      log.child({ module: 'channel-checks' }),
      options.channelChecks,
    ),
    sms: new SmsService(db, sms, config.jwtSecret, appUrl),
    audit: new AuditLog(db, partitions, log.child({ module: 'audit' })),
    backups,
  };
}

/** The SMS channel over Twilio (the one provider built in; another is an `SmsSender` built here). */
function smsChannel(
  db: Db,
  twilio: TwilioConfig,
  pushConfigured: boolean,
  alertsUrl: string,
  log: FastifyBaseLogger,
  options: ComposeOptions['sms'] = {},
): SmsChannel {
  const sender = new TwilioSender(twilio, options);
  return new SmsChannel(
    {
      db,
      sender,
      senderTimeoutMs: sender.options.requestTimeoutMs,
      link: alertsUrl,
      pushConfigured,
      log: log.child({ module: 'sms' }),
    },
    options,
  );
}

export interface Running {
  realtime: Realtime;
  /** Stop the timers and write what is queued; call while the database is still open. */
  stop(): Promise<void>;
}

/**
 * Every route prefix, Socket.IO and MQTT; starts the timers (partitions, offline sweep,
 * escalations) and the background senders.
 */
export async function registerRoutes(app: AppInstance, ctx: AppContext): Promise<Running> {
  const routes: [(app: AppInstance, ctx: AppContext) => Promise<void>, string][] = [
    [userRoutes, '/api/v1'],
    [twoFactorRoutes, '/api/v1'],
    [accountRoutes, '/api/v1'],
    [deviceRoutes, '/api/v1'],
    [readingsRoutes, '/api/v1'],
    [alertRoutes, '/api/v1'],
    [boardRoutes, '/api/v1'],
    [ingestRoutes, '/api/v1'],
    [exportRoutes, '/api/v1'],
    [shareRoutes, '/api/v1'],
    [circleRoutes, '/api/v1'],
    [gatewayRoutes, '/api/v1'],
    [webhookRoutes, '/api/v1'],
    [adminWebhookRoutes, '/api/v1'],
    [smsRoutes, '/api/v1'],
    [adminRoutes, '/api/v1'],
    [adminDeviceRoutes, '/api/v1'],
    [adminIngestRoutes, '/api/v1'],
    [auditRoutes, '/api/v1'],
    [fleetRoutes, '/api/v1'],
    [adminShareRoutes, '/api/v1'],
    [teamRoutes, '/api/v1'],
    [backupRoutes, '/api/v1'],
    [pushRoutes, '/api/v1'],
    [fhirRoutes, '/fhir/R4'],
    [async (app) => fhirOtherVersions(app), '/fhir'],
  ];
  app.addHook('onError', ctx.audit.recordAdminRefusal);
  for (const [routesOf, prefix] of routes) await app.register((i) => routesOf(i, ctx), { prefix });

  // Before anything that emits domain events starts: with REDIS_URL its listeners are attached
  // only once the Redis adapter has loaded.
  const realtime = await registerRealtime(app, ctx);
  await ctx.partitions.start(PARTITION_MAINTENANCE_MS, app.log.child({ module: 'partitions' }));
  ctx.backups.schedule(ctx.config.scheduledBackups, app.log.child({ module: 'backup' }));
  ctx.alertEngine.start({
    offlineSweepMs: ctx.config.ingest?.offlineSweepIntervalMs ?? DEFAULT_OFFLINE_SWEEP_MS,
    escalationMs: ctx.config.ingest?.escalationIntervalMs ?? DEFAULT_ESCALATION_MS,
  });
  ctx.outbox.start(ctx.events);
  ctx.channelChecks.start();
  registerMetrics(app, ctx, () => realtime.io.engine.clientsCount);
  await registerMqtt(app, ctx);

  /**
   * Each step waits at most its bound: one stuck on a connection whose packets are dropped (the
   * database behind a dead link answers nothing, and only TCP's own give-up, minutes later, would
   * end it) must not hold the rest, nor the process's exit. What a step leaves undone is safe:
   * readings still queued were never acknowledged, outbox jobs go out when their lease ends.
   */
  const step = async (what: string, work: Promise<unknown>, ms = SHUTDOWN_STEP_MS) => {
    if (!(await settledWithin(work, ms))) app.log.warn(`shutdown: ${what} did not finish within ${ms} ms`);
  };
  const stop = async () => {
    ctx.eventLoop.stop();
    await step(
      'the timers',
      Promise.all([ctx.alertEngine.stop(), ctx.partitions.stop(), ctx.backups.scheduled?.stop()]),
    );
    // Queued readings are written (and their events published) before the listeners stop.
    await step('the ingest queue', ctx.ingest.drain());
    // The outbox finishes the batch in flight while the database is still open; the rest waits in it.
    await step('the channel checks', ctx.channelChecks.stop());
    await step('the outbox', ctx.outbox.stop(ctx.events), OUTBOX_STOP_BOUND_MS);
    await step('account mails', ctx.account.idle());
    ctx.alertMailer.close();
  };
  return { realtime, stop };
}
