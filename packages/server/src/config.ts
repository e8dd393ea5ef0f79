import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import type { DeviceAuthLimits } from './auth/device-auth-limits.ts';
import type { ScheduledBackupOptions } from './backup/schedule.ts';
import { DEFAULT_RETENTION, type RetentionDays } from './db/partitions.ts';
import type { HeavyReadLimits } from './http/heavy-reads.ts';
import { KNOWN_PUSH_SERVICE_HOSTS, type PushEndpointPolicy } from './push-delivery/endpoint-guard.ts';
import { loadOrCreateVapidKeys, type VapidKeys, vapidKeysSchema } from './push-delivery/vapid-keys.ts';
import { TWILIO_API_URL, type TwilioConfig } from './sms/twilio.ts';

/** Digits only: an empty value (`PORT=`) must not coerce to 0, which means "any free port" (or MQTT off). */
const PORT_MESSAGE = 'must be a port number from 0 to 65535';
const port = z
  .string()
  .trim()
  .regex(/^\d{1,5}$/, PORT_MESSAGE)
  .transform(Number)
  .pipe(z.number().max(65535, PORT_MESSAGE));
const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || protocols.some((p) => v.startsWith(p)), {
      message: `must start with ${protocols.join(' or ')}`,
    });

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}

/**
 * Which proxies' X-Forwarded-For to believe, so per-address limits count clients, not the load
 * balancer: unset → none; `true` → any peer (only when nothing reaches the server but the
 * balancer); else the balancers' addresses or CIDRs. No hop counts: they cannot tell a balancer
 * from a client that sends its own header (Fastify refuses them for that reason).
 */
const trustProxy = z
  .string()
  .trim()
  .optional()
  .transform((v): boolean | string[] => {
    if (!v || v === 'false') return false;
    if (v === 'true') return true;
    return v
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean);
  })
  .refine((v) => !Array.isArray(v) || v.every((a) => isIP(a.split('/')[0] ?? '') !== 0), {
    message: 'must be true or comma-separated IP addresses or CIDR ranges',
  });

const hostList = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);

/**
 * `*` (any public host) or host names, `*.domain` for any name under a domain; never addresses.
 * Unset or empty: the push services of the major browsers.
 */
const pushServiceHosts = z
  .string()
  .optional()
  .transform((v): readonly string[] | 'any' => {
    if (!v?.trim()) return KNOWN_PUSH_SERVICE_HOSTS;
    return v.trim() === '*' ? 'any' : hostList(v);
  })
  .refine(
    (v) => v === 'any' || v.every((h) => /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(h) && isIP(h) === 0),
    { message: 'must be * or comma-separated host names (*.domain for any name under it), not addresses' },
  );

/**
 * Sign-up attempts one address may make an hour: sign-up says whether a username or e-mail is
 * taken (the spec's messages), so unlimited attempts would list who has an account. A household
 * or a ward signing up behind one address stays well under it.
 */
export const DEFAULT_SIGNUPS_PER_HOUR = 20;

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: port.default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalUrl(['postgres://', 'postgresql://']),
  REDIS_URL: optionalUrl(['redis://', 'rediss://']),
  MQTT_PORT: port.optional(),
  MQTT_URL: optionalUrl(['mqtt://', 'mqtts://', 'tcp://', 'ws://', 'wss://']),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  VAPID_PUBLIC_KEY: z.string().min(1).optional(),
  VAPID_PRIVATE_KEY: z.string().min(1).optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)\S+$/, 'must be a mailto: or https:// URL')
    .default('mailto:alerts@vitalwatch.local'),
  ADMIN_USERNAME: z.string().trim().min(1).optional(),
  ADMIN_EMAIL: z.string().trim().email().optional(),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  SMTP_URL: optionalUrl(['smtp://', 'smtps://']),
  MAIL_FROM: z.string().min(1).default('VitalWatch <alerts@vitalwatch.local>'),
  /** Where people reach the app, for links in emails; defaults to http://HOST:PORT. */
  PUBLIC_URL: optionalUrl(['http://', 'https://']),
  /** Twilio account for alert SMS; SMS is offered only when the SID, token and sender are all set. */
  TWILIO_ACCOUNT_SID: z.string().trim().min(1).optional(),
  TWILIO_AUTH_TOKEN: z.string().trim().min(1).optional(),
  TWILIO_FROM: z.string().trim().min(1).optional(),
  TWILIO_API_URL: optionalUrl(['http://', 'https://']),
  /** Browser origins besides the app's own that may call the API, FHIR and Socket.IO. */
  CORS_ORIGINS: z
    .string()
    .optional()
    .transform((v) =>
      v
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : [],
    )
    // A browser's Origin is exactly scheme://host[:port]; "https://app.example/" would never match.
    .refine((origins) => origins.every(isOrigin), {
      message: 'each entry must be an origin such as https://app.example (no path, no trailing slash)',
    }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: trustProxy,
  WEB_DIST: z.string().optional(),
  /** Requests per second one device may make to /api/v1/ingest/* (each may carry 500 readings). */
  INGEST_RATE_PER_DEVICE: z.coerce.number().int().min(1).default(100),
  /** How often every socket's token is checked again (expiry); session ends are acted on at once. */
  SOCKET_RECHECK_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** Days raw readings are kept (whole weekly partitions are dropped after this). */
  RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(DEFAULT_RETENTION.raw),
  /** Days minute and hour rollups are kept: far longer than raw readings. */
  ROLLUP_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(DEFAULT_RETENTION.rollups),
  /** Days audit log entries are kept (whole monthly partitions are dropped after this). */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(DEFAULT_RETENTION.audit),
  /** Open connections to the embedded MQTT broker from one address (a gateway, a TCP load balancer). */
  MQTT_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).optional(),
  /** Push services whose endpoints browsers may subscribe with; `*` for any public host. */
  PUSH_SERVICE_HOSTS: pushServiceHosts,
  /** Accounts one address may try to create an hour (DEFAULT_SIGNUPS_PER_HOUR). */
  SIGNUPS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).default(DEFAULT_SIGNUPS_PER_HOUR),
  /** Admins must sign in with a second factor (TOTP); those without one set it up at their next sign-in. */
  REQUIRE_ADMIN_2FA: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true'),
  /** Bearer token a Prometheus scraper sends to GET /metrics; unset, there is no /metrics. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** How often this process looks for due notifications in the outbox (ms); 0 leaves it to the other processes. */
  NOTIFICATION_POLL_MS: z.coerce.number().int().min(0).max(60_000).optional(),
  /** Seconds a claimed notification is one process's before another may send it (after a crash). */
  NOTIFICATION_LEASE_SECONDS: z.coerce.number().int().min(5).max(3600).optional(),
  /** Scheduled backups of the running server go here; unset (the default), there are none. */
  BACKUP_DIR: z.string().min(1).optional(),
  /** Hours between scheduled backups (daily by default). */
  BACKUP_EVERY_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 365)
    .default(24),
  /** Scheduled backup files kept, newest first (a week of daily ones by default). */
  BACKUP_KEEP: z.coerce.number().int().min(1).max(10_000).default(7),
  /** Encrypts backup files (scheduled ones and `npm run backup`); at least 12 characters. */
  BACKUP_PASSPHRASE: z.string().min(12, 'must be at least 12 characters').optional(),
  /** Tests only (NODE_ENV=test): hosts exempt from the push endpoint rules, e.g. a local push service. */
  PUSH_TEST_ONLY_HOSTS: z.string().optional().transform(hostList),
});
export type Env = z.infer<typeof envSchema>;

/** Everything the app needs, resolved: secrets are present, paths absolute. */
export interface AppConfig {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  dataDir: string;
  /** `undefined` → embedded PGlite under dataDir; `'memory'` → in-memory PGlite (tests). */
  databaseUrl: string | undefined;
  pgliteDir: string | 'memory';
  redisUrl: string | undefined;
  /** `undefined` → default 1883 with fallback; `0` → off. */
  mqttPort: number | undefined;
  mqttUrl: string | undefined;
  jwtSecret: string;
  /** Web Push identity; `loadConfig` always sets it, `undefined` (tests) turns push sending off. */
  vapid: { publicKey: string; privateKey: string; subject: string } | undefined;
  admin: { username?: string; email?: string; password?: string };
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Absolute origin for links in emails (no trailing slash); unset → http://host:port. */
  publicUrl?: string;
  corsOrigins: string[];
  logLevel: Env['LOG_LEVEL'];
  /** Fastify's trustProxy: whose X-Forwarded-For gives the client address (TRUST_PROXY). */
  trustProxy: Env['TRUST_PROXY'];
  /** Built web app to serve, or undefined to serve none. */
  webDist: string | undefined;
  /** Per-IP and per-account login limits. */
  loginLimits: { perIpPerMinute: number; perAccountFailures: number; perAccountWindowMs: number };
  /** Sign-up attempts per client address an hour (default 20). */
  signupsPerAddressPerHour?: number;
  /** How often every socket's token is checked again, in ms (default 30 s). */
  socketRecheckMs?: number;
  /** Failed device authentication limits; unset fields take DEVICE_AUTH_LIMITS (auth/device-auth-limits.ts). */
  deviceAuth?: Partial<DeviceAuthLimits>;
  /** Exports, FHIR searches and histories at once; unset fields take HEAVY_READ_LIMITS (http/heavy-reads.ts). */
  heavyReads?: Partial<HeavyReadLimits>;
  /** Device ingestion; every field optional with sensible defaults (100 req/s per device, sweep every 30 s). */
  ingest?: {
    ratePerDevicePerSecond?: number;
    /** How often to look for devices gone silent (DEVICE_OFFLINE); 0 turns the timer off. */
    offlineSweepIntervalMs?: number;
    /** How often to run due escalation steps (default 1 s); 0 turns the timer off. */
    escalationIntervalMs?: number;
    /** Readings that may wait for a group commit before ingestion sheds load (see IngestService). */
    maxQueuedRows?: number;
  };
  /** Days raw readings and rollups are kept (default DEFAULT_RETENTION). */
  retentionDays?: RetentionDays;
  /** Which push endpoints browsers may subscribe with and the server sends to (default DEFAULT_PUSH_ENDPOINT_POLICY). */
  pushEndpoints?: PushEndpointPolicy;
  /** Bearer token for GET /metrics; undefined: no /metrics route. */
  metricsToken?: string;
  /** REQUIRE_ADMIN_2FA (default off). */
  requireAdminTwoFactor?: boolean;
  /** The notification outbox's worker on this process; unset fields take its defaults (notification-outbox/outbox.ts). */
  notifications?: { pollMs?: number; leaseMs?: number };
  /** BACKUP_DIR and its companions; undefined: no scheduled backups. */
  scheduledBackups?: ScheduledBackupOptions;
  /** Twilio for alert SMS (TWILIO_*); undefined: SMS is not offered. */
  twilio?: TwilioConfig;
}

export class ConfigError extends Error {}

/** Parse the environment; a bad value throws a ConfigError that names the variable. */
export function parseEnv(source: NodeJS.ProcessEnv): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

interface Secrets {
  jwtSecret: string;
}

/** Secrets generated once and kept in DATA_DIR, so restarts keep sessions valid. */
function loadOrCreateSecrets(dataDir: string): Secrets {
  const file = path.join(dataDir, 'secrets.json');
  try {
    const parsed = z.object({ jwtSecret: z.string().min(32) }).parse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new ConfigError(`${file} is unreadable: ${err}`);
  }
  const secrets: Secrets = { jwtSecret: randomBytes(48).toString('base64url') };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
  return secrets;
}

/** TWILIO_* when the account, token and sender are all set; none set: SMS is not offered; some: an error. */
function twilioOf(env: Env): { twilio?: TwilioConfig } {
  const { TWILIO_ACCOUNT_SID: accountSid, TWILIO_AUTH_TOKEN: authToken, TWILIO_FROM: from } = env;
  if (!accountSid && !authToken && !from) return {};
  if (!accountSid || !authToken || !from)
    throw new ConfigError(
      'Invalid configuration:\n  TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM must be set together',
    );
  const apiUrl = (env.TWILIO_API_URL ?? TWILIO_API_URL).replace(/\/+$/, '');
  return { twilio: { accountSid, authToken, from, apiUrl } };
}

/** VAPID_* when both are set (validated), else the pair generated once and kept in DATA_DIR. */
function resolveVapidKeys(env: Env, dataDir: string): VapidKeys {
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey } = env;
  if (publicKey === undefined && privateKey === undefined) return loadOrCreateVapidKeys(dataDir);
  if (publicKey === undefined || privateKey === undefined)
    throw new ConfigError(
      'Invalid configuration:\n  VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together',
    );
  const parsed = vapidKeysSchema.safeParse({ publicKey, privateKey });
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (i) => `  VAPID_${String(i.path[0]) === 'publicKey' ? 'PUBLIC' : 'PRIVATE'}_KEY: ${i.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const env = parseEnv(source);
  if (env.ROLLUP_RETENTION_DAYS < env.RETENTION_DAYS)
    throw new ConfigError(
      'Invalid configuration:\n  ROLLUP_RETENTION_DAYS: must be at least RETENTION_DAYS (rollups summarise the raw readings)',
    );
  if (env.PUSH_TEST_ONLY_HOSTS.length > 0 && env.NODE_ENV !== 'test')
    throw new ConfigError(
      'Invalid configuration:\n  PUSH_TEST_ONLY_HOSTS: only for tests (NODE_ENV=test): it lets the server send pushes into its own network',
    );
  const dataDir = path.resolve(env.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const jwtSecret = env.JWT_SECRET ?? loadOrCreateSecrets(dataDir).jwtSecret;
  const vapid = { ...resolveVapidKeys(env, dataDir), subject: env.VAPID_SUBJECT };
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    pgliteDir: path.join(dataDir, 'pglite'),
    redisUrl: env.REDIS_URL,
    mqttPort: env.MQTT_PORT,
    mqttUrl: env.MQTT_URL,
    jwtSecret,
    vapid,
    admin: { username: env.ADMIN_USERNAME, email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD },
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    publicUrl: env.PUBLIC_URL?.replace(/\/+$/, ''),
    corsOrigins: env.CORS_ORIGINS,
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    webDist: env.WEB_DIST ? path.resolve(env.WEB_DIST) : undefined,
    loginLimits: { perIpPerMinute: 300, perAccountFailures: 10, perAccountWindowMs: 15 * 60_000 },
    ingest: { ratePerDevicePerSecond: env.INGEST_RATE_PER_DEVICE },
    socketRecheckMs: env.SOCKET_RECHECK_SECONDS * 1000,
    retentionDays: {
      raw: env.RETENTION_DAYS,
      rollups: env.ROLLUP_RETENTION_DAYS,
      audit: env.AUDIT_RETENTION_DAYS,
    },
    pushEndpoints: { allowedHosts: env.PUSH_SERVICE_HOSTS, testOnlyHosts: env.PUSH_TEST_ONLY_HOSTS },
    metricsToken: env.METRICS_TOKEN,
    requireAdminTwoFactor: env.REQUIRE_ADMIN_2FA,
    ...twilioOf(env),
    notifications: {
      ...(env.NOTIFICATION_POLL_MS === undefined ? {} : { pollMs: env.NOTIFICATION_POLL_MS }),
      ...(env.NOTIFICATION_LEASE_SECONDS === undefined
        ? {}
        : { leaseMs: env.NOTIFICATION_LEASE_SECONDS * 1000 }),
    },
    ...(env.BACKUP_DIR
      ? {
          scheduledBackups: {
            dir: path.resolve(env.BACKUP_DIR),
            everyHours: env.BACKUP_EVERY_HOURS,
            keep: env.BACKUP_KEEP,
            passphrase: env.BACKUP_PASSPHRASE,
          },
        }
      : {}),
    signupsPerAddressPerHour: env.SIGNUPS_PER_ADDRESS_PER_HOUR,
    ...(env.MQTT_CONNECTIONS_PER_ADDRESS
      ? { deviceAuth: { mqttConnectionsPerIp: env.MQTT_CONNECTIONS_PER_ADDRESS } }
      : {}),
  };
}
