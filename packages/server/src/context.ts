import type { Readable } from 'node:stream';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import type { authGuards } from './auth/plugin.ts';
import type { AlertActionTokens, PushReceiptTokens, TokenService } from './auth/tokens.ts';
import type { BackupService } from './backup/service.ts';
import type { ChannelChecks } from './channel-health/checks.ts';
import type { AppConfig } from './config.ts';
import type { Database, Db } from './db/index.ts';
import type { TimePartitions } from './db/partitions.ts';
import type { HeavyReads } from './http/heavy-reads.ts';
import type { EventBus } from './lib/events.ts';
import type { AlertMailer } from './mail/alert-mailer.ts';
import type { AccountService } from './modules/account/service.ts';
import type { AdminService } from './modules/admin/service.ts';
import type { AlertEngine, AlertService } from './modules/alert/service.ts';
import type { AuditLog } from './modules/audit/service.ts';
import type { BoardService } from './modules/board/service.ts';
import type { CircleService } from './modules/circle/service.ts';
import type { DeviceService } from './modules/device/service.ts';
import type { ExportService } from './modules/export/service.ts';
import type { FhirService } from './modules/fhir/service.ts';
import type { FleetService } from './modules/fleet/service.ts';
import type { GatewayService } from './modules/gateway/service.ts';
import type { DeviceSetupService } from './modules/ingest/device-setup.ts';
import type { IngestService } from './modules/ingest/service.ts';
import type { PushBrowsersService } from './modules/push-subscriptions/service.ts';
import type { ReadingsService } from './modules/readings/service.ts';
import type { ShareService } from './modules/share/service.ts';
import type { TeamService } from './modules/team/service.ts';
import type { UserService } from './modules/user/service.ts';
import type { TwoFactorService } from './modules/user/two-factor-service.ts';
import type { MqttGateway } from './mqtt/gateway.ts';
import type { NotificationOutbox } from './notification-outbox/outbox.ts';
import type { PushEndpointGuard } from './push-delivery/endpoint-guard.ts';
import type { PushService } from './push-delivery/push-service.ts';
import type { SmsService } from './sms/service.ts';
import type { EventLoopMonitor } from './system-status/event-loop-monitor.ts';
import type { SystemStatusService } from './system-status/system-status.ts';
import type { WebhookService } from './webhooks/service.ts';
import type { WebhookChannel } from './webhooks/webhook-channel.ts';

/** Fastify with zod schemas as the type provider: bodies and replies are typed from the schemas. */
export type AppInstance = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** Every service of the server, built once by the composition root (composition.ts). */
export interface AppContext {
  config: AppConfig;
  database: Database;
  db: Db;
  redis: Redis | undefined;
  tokens: TokenService;
  /** Tokens scoped to one alert, for the Acknowledge button of a push notification. */
  alertActions: AlertActionTokens;
  guards: ReturnType<typeof authGuards>;
  users: UserService;
  twoFactor: TwoFactorService;
  /** A person's own account: forgotten password, e-mail verification, sessions, closing. */
  account: AccountService;
  /** The caller's data download (a ZIP written as it is read), FHIR fullUrls under `fhirRoot`. */
  accountData: (userId: string, fhirRoot: string) => Promise<Readable>;
  /** Committed facts (health records, alerts) for real time, push and mail. */
  events: EventBus;
  /** MQTT ingestion: where devices connect (`status`, `describe()`) and its counters (`stats`). */
  mqtt: MqttGateway;
  /** Device authentication and ingestion for HTTP and MQTT (contract atop modules/ingest/service.ts). */
  ingest: IngestService;
  /** The admin's first-run path for a device: its newest reading, where MQTT listens, a test reading. */
  deviceSetup: DeviceSetupService;
  /** Time partitions of readings and rollups: made ahead and on demand, dropped after retention. */
  partitions: TimePartitions;
  /** The one place alerts are raised: vital-sign episodes, device events, the DEVICE_OFFLINE sweeper (`sweepOffline(now)`). */
  alertEngine: AlertEngine;
  /** Devices for their users and admins; `devices.credentials` is the one cache ingestion checks. */
  devices: DeviceService;
  /** Readings stored (with rollups) and read back: latest, history. */
  readings: ReadingsService;
  /** CSV exports and PDF reports of a device the caller may see. */
  exports: ExportService;
  /** Read-only share links: made, listed and revoked by users, read through by anyone holding one. */
  shares: ShareService;
  /** Browser gateways of Bluetooth wearables: their device-scoped keys. */
  gateways: GatewayService;
  /** FHIR R4 reads: the devices a caller may see and their Observations. */
  fhir: FhirService;
  /** A user's alerts: lists, read state, acknowledge / resolve, snoozes, timeline. */
  alerts: AlertService;
  /** Platform figures and user management for admins. */
  admin: AdminService;
  /** The admin's devices and users a page at a time, searched and filtered; the overview's fleet counts. */
  fleet: FleetService;
  /** The admin's System Status (database, API, notifications, e-mail). */
  systemStatus: SystemStatusService;
  /** Event-loop lag, for the API's status. */
  eventLoop: EventLoopMonitor;
  /** Web Push of alerts to every contact's browsers (a channel of the outbox). */
  push: PushService;
  /** A user's browsers subscribed to push. */
  pushBrowsers: PushBrowsersService;
  /** Check the receipt token a push message carries (shown, opened). */
  pushReceipts: PushReceiptTokens;
  /** Which push endpoints a browser may subscribe with (the push service's connections use it too). */
  pushEndpoints: PushEndpointGuard;
  /** Every push and e-mail of every alert as a durable job, run on every process, each once. */
  outbox: NotificationOutbox;
  /** The webhook channel of the outbox (channel health queues its notices with it). */
  webhookChannel: WebhookChannel;
  /** Channel health: the daily check of browsers that showed nothing for a day. */
  channelChecks: ChannelChecks;
  /** Alert emails to assigned users who opted in (a channel of the outbox). */
  alertMailer: AlertMailer;
  webhooks: WebhookService;
  /** A person's number for alert SMS, its verification, and STOP/START replies. */
  sms: SmsService;
  /** Security-relevant actions, append-only, for admins to examine. */
  audit: AuditLog;
  teams: TeamService;
  circles: CircleService;
  board: BoardService;
  /** Backups of the whole database: streamed to an admin or `npm run backup`, and on a schedule. */
  backups: BackupService;
  /** Per-user limits and fair turns for exports, FHIR searches and histories (`preHandler: heavyReads.gate`). */
  heavyReads: HeavyReads;
}
