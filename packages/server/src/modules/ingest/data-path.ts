import type { FastifyBaseLogger } from 'fastify';
import type { AppContext, AppInstance } from '../../context.ts';
import type { Database } from '../../db/index.ts';
import type { EventBus } from '../../lib/events.ts';
import { AlertEngine } from '../alert/engine.ts';
import { alertRoutes } from '../alert/routes.ts';
import { AlertService } from '../alert/service.ts';
import { adminDeviceRoutes } from '../device/admin-routes.ts';
import { deviceRoutes } from '../device/routes.ts';
import { DeviceService } from '../device/service.ts';
import { healthRoutes } from '../health/routes.ts';
import { HealthService } from '../health/service.ts';
import { ingestRoutes } from './routes.ts';
import { IngestService } from './service.ts';

const DEFAULT_OFFLINE_SWEEP_MS = 30_000;
/** Escalation steps are due on the minute; a second late at most. */
const DEFAULT_ESCALATION_MS = 1000;

/** The services of the data path that others use through the context. */
export function createDataPath(database: Database, events: EventBus, log: FastifyBaseLogger) {
  const alertEngine = new AlertEngine(database.db, events, log.child({ module: 'alerts' }));
  const ingest = new IngestService(database.db, alertEngine, events, log.child({ module: 'ingest' }), {
    // PGlite runs one statement at a time; a server overlaps one batch's commit with the next insert.
    concurrency: database.kind === 'postgres' ? 4 : 1,
  });
  return { alertEngine, ingest };
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
  ctx.alertEngine.start({
    offlineSweepMs: ctx.config.ingest?.offlineSweepIntervalMs ?? DEFAULT_OFFLINE_SWEEP_MS,
    escalationMs: ctx.config.ingest?.escalationIntervalMs ?? DEFAULT_ESCALATION_MS,
  });
}

/** Stop the alert engine's timers and write what is queued, while the database is still open. */
export async function closeDataPath(ctx: AppContext): Promise<void> {
  await ctx.alertEngine.stop();
  await ctx.ingest.drain();
}
