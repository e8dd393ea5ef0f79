import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../config.ts';
import type { AppContext, AppInstance } from '../../context.ts';
import type { Database } from '../../db/index.ts';
import { DEFAULT_RETENTION, TimePartitions } from '../../db/partitions.ts';
import type { EventBus } from '../../lib/events.ts';
import { AlertEngine } from '../alert/engine.ts';
import { alertRoutes } from '../alert/routes.ts';
import { AlertService } from '../alert/service.ts';
import { adminDeviceRoutes } from '../device/admin-routes.ts';
import { deviceRoutes } from '../device/routes.ts';
import { DeviceService } from '../device/service.ts';
import { healthRoutes } from '../readings/routes.ts';
import { HealthService } from '../readings/service.ts';
import { ingestRoutes } from './routes.ts';
import { IngestService } from './service.ts';

const DEFAULT_OFFLINE_SWEEP_MS = 30_000;
/** Escalation steps are due on the minute; a second late at most. */
const DEFAULT_ESCALATION_MS = 1000;

/** Partitions are made weeks ahead; an hourly look keeps that true and retention within the hour. */
const PARTITION_MAINTENANCE_MS = 3_600_000;

/** The services of the data path that others use through the context. */
export function createDataPath(
  database: Database,
  events: EventBus,
  log: FastifyBaseLogger,
  config: Pick<AppConfig, 'retentionDays' | 'ingest'> = {},
) {
  const alertEngine = new AlertEngine(database.db, events, log.child({ module: 'alerts' }));
  const partitions = new TimePartitions(database.db, config.retentionDays ?? DEFAULT_RETENTION);
  const ingest = new IngestService(
    database.db,
    alertEngine,
    partitions,
    events,
    log.child({ module: 'ingest' }),
    {
      // PGlite runs one statement at a time; a server overlaps one batch's commit with the next
      // insert. Two, measured against one and four (`npm run bench`): batched HTTP 22.5k / 32.1k /
      // 28.7k readings/s, MQTT 16.2k / 15.9k / 15.1k; more batches in flight only make them smaller.
      concurrency: database.kind === 'postgres' ? 2 : 1,
      maxQueuedRows: config.ingest?.maxQueuedRows,
    },
  );
  return { alertEngine, partitions, ingest };
}

/** Devices (user and admin), health, alerts and HTTP ingestion routes; starts the alert engine's timers. */
export async function registerDataPath(app: AppInstance, ctx: AppContext): Promise<void> {
  const devices = new DeviceService(ctx.db, (id) => ctx.ingest.forgetDevice(id));
  await app.register((i) => deviceRoutes(i, ctx, devices), { prefix: '/api/v1/device' });
  await app.register((i) => adminDeviceRoutes(i, ctx, devices), { prefix: '/api/v1/admin' });
  await app.register((i) => healthRoutes(i, ctx, new HealthService(ctx.db)), { prefix: '/api/v1/health' });
  await app.register(
    (i) => alertRoutes(i, ctx, new AlertService(ctx.db, ctx.alertEngine, ctx.alertActions)),
    {
      prefix: '/api/v1/alert',
    },
  );
  await app.register((i) => ingestRoutes(i, ctx, ctx.ingest), { prefix: '/api/v1/ingest' });
  await ctx.partitions.start(PARTITION_MAINTENANCE_MS, app.log.child({ module: 'partitions' }));
  ctx.alertEngine.start({
    offlineSweepMs: ctx.config.ingest?.offlineSweepIntervalMs ?? DEFAULT_OFFLINE_SWEEP_MS,
    escalationMs: ctx.config.ingest?.escalationIntervalMs ?? DEFAULT_ESCALATION_MS,
  });
}

/** Stop the alert engine's timers and write what is queued, while the database is still open. */
export async function closeDataPath(ctx: AppContext): Promise<void> {
  await Promise.all([ctx.alertEngine.stop(), ctx.partitions.stop()]);
  await ctx.ingest.drain();
}
