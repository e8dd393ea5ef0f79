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
import type { AlertActionTokens, TokenService } from './auth/tokens.ts';
import type { AppConfig } from './config.ts';
import type { Database, Db } from './db/index.ts';
import type { TimePartitions } from './db/partitions.ts';
import type { EventBus } from './lib/events.ts';
import type { AlertMailer } from './mail/alert-mailer.ts';
import type { AlertEngine } from './modules/alert/engine.ts';
import type { AuditLog } from './modules/audit/service.ts';
import type { IngestService } from './modules/ingest/service.ts';
import type { UserService } from './modules/user/service.ts';
import type { TwoFactorService } from './modules/user/two-factor-service.ts';
import type { MqttGateway } from './mqtt/index.ts';
import type { PushEndpointGuard } from './push-delivery/endpoint-guard.ts';
import type { PushService } from './push-delivery/push-service.ts';
import type { Realtime } from './realtime/socket-server.ts';

/** Fastify with zod schemas as the type provider: bodies and replies are typed from the schemas. */
export type AppInstance = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** Everything a module needs, built once in `buildApp`. */
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
  /** Committed facts (health records, alerts) for real time, push and mail. */
  events: EventBus;
  /** MQTT ingestion: where devices connect (`status`, `describe()`) and its counters (`stats`). */
  mqtt: MqttGateway;
  /** Socket.IO, set once registered (`buildApp` always does). */
  realtime?: Realtime;
  /** Device authentication and ingestion for HTTP and MQTT (contract atop modules/ingest/service.ts). */
  ingest: IngestService;
  /** Time partitions of readings and rollups: made ahead and on demand, dropped after retention. */
  partitions: TimePartitions;
  /** Vital-sign episodes and the DEVICE_OFFLINE sweeper (`sweepOffline(now)`). */
  alertEngine: AlertEngine;
  /** Web Push of new alerts to every assigned user's browsers, in the background. */
  push: PushService;
  /** Which push endpoints a browser may subscribe with (the push service's connections use it too). */
  pushEndpoints: PushEndpointGuard;
  /** Alert emails to assigned users who opted in, in the background. */
  alertMailer: AlertMailer;
  /** Security-relevant actions, append-only, for admins to examine. */
  audit: AuditLog;
}
