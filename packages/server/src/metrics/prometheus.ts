import { timingSafeEqual } from 'node:crypto';
import { SERVER_MESSAGES } from '@vitalwatch/shared';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { bearerToken } from '../auth/plugin.ts';
import type { AppContext, AppInstance } from '../context.ts';
import { DomainError } from '../errors.ts';

/**
 * The process's figures for Prometheus, under `vitalwatch_`: ingest (readings stored, queue depth,
 * group-commit size and time, readings shed), alerts raised by type and priority, push and e-mail
 * deliveries by outcome, connected sockets and MQTT devices, plus Node's own (memory, event-loop
 * lag, GC). One registry per app, so several apps in one process (tests) do not mix figures.
 */
export function metricsRegistry(ctx: AppContext, sockets: () => number): Registry {
  const notifications = ctx.outbox;
  const register = new Registry();
  collectDefaultMetrics({ register, prefix: 'vitalwatch_' });
  // prom-client also gives each of these gauges' sum over types under a `_total` name, which
  // Prometheus keeps for counters (promtool refuses it); `sum(vitalwatch_nodejs_active_handles)`
  // is the same figure.
  for (const kind of ['handles', 'requests', 'resources'])
    register.removeSingleMetric(`vitalwatch_nodejs_active_${kind}_total`);

  const readings = new Counter({
    name: 'vitalwatch_readings_stored_total',
    help: 'Health readings stored (duplicates excluded), over HTTP and MQTT.',
    registers: [register],
  });
  ctx.events.on('health', (_audience, records) => readings.inc(records.length));

  const alerts = new Counter({
    name: 'vitalwatch_alerts_raised_total',
    help: 'Alerts raised, by type and priority.',
    labelNames: ['type', 'priority'],
    registers: [register],
  });
  ctx.events.on('alerts', (_audience, raised) => {
    for (const a of raised) alerts.inc({ type: a.alertType, priority: a.priority });
  });

  const commitRows = new Histogram({
    name: 'vitalwatch_ingest_commit_rows',
    help: 'Readings written per group commit.',
    buckets: [1, 10, 50, 100, 250, 500, 1000, 2500, 5000],
    registers: [register],
  });
  const commitSeconds = new Histogram({
    name: 'vitalwatch_ingest_commit_seconds',
    help: 'Time to write one group commit (lock, insert, rollups, alarm conditions).',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [register],
  });
  ctx.ingest.observeCommits((rows, seconds) => {
    commitRows.observe(rows);
    commitSeconds.observe(seconds);
  });

  gauge(
    register,
    'vitalwatch_ingest_queue_rows',
    'Readings waiting for a group commit.',
    () => ctx.ingest.queuedRows,
  );
  const backups = () => ctx.backups.scheduled?.status;
  counterOf(
    register,
    'vitalwatch_backups_total',
    'Scheduled backups (BACKUP_DIR), by outcome.',
    () => [
      [{ outcome: 'success' }, backups()?.successes ?? 0],
      [{ outcome: 'failure' }, backups()?.failures ?? 0],
    ],
    ['outcome'],
  );
  gauge(
    register,
    'vitalwatch_backup_last_success_timestamp_seconds',
    'When the last scheduled backup was written (Unix time; 0: none yet).',
    () => (backups()?.lastSuccessAt?.getTime() ?? 0) / 1000,
  );
  counterOf(
    register,
    'vitalwatch_ingest_shed_total',
    'Readings refused because the ingest queue was full.',
    () => [[{}, ctx.ingest.shed]],
  );
  counterOf(
    register,
    'vitalwatch_notifications_total',
    'Alert notifications sent, by channel and outcome.',
    () =>
      Object.entries(notifications.totals).flatMap(([channel, n]) => [
        [{ channel, outcome: 'ok' }, n.ok] as const,
        [{ channel, outcome: 'failed' }, n.failed] as const,
      ]),
    ['channel', 'outcome'],
  );
  counterOf(
    register,
    'vitalwatch_mqtt_messages_total',
    'MQTT messages on device topics, by outcome.',
    () => Object.entries(ctx.mqtt.stats).map(([outcome, n]) => [{ outcome }, n]),
    ['outcome'],
  );
  gauge(register, 'vitalwatch_sockets_connected', 'Browser sockets connected to this process.', () =>
    sockets(),
  );
  gauge(
    register,
    'vitalwatch_mqtt_clients_connected',
    'Devices connected to the embedded MQTT broker (0 when an external broker is used).',
    () => ctx.mqtt.clients() ?? 0,
  );
  return register;
}

function gauge(register: Registry, name: string, help: string, read: () => number): void {
  new Gauge({
    name,
    help,
    registers: [register],
    collect() {
      this.set(read());
    },
  });
}

type Labels = Record<string, string>;

/** A counter whose values another part keeps (totals since start): read when scraped. */
function counterOf(
  register: Registry,
  name: string,
  help: string,
  read: () => [Labels, number][],
  labelNames: string[] = [],
): void {
  new Counter({
    name,
    help,
    labelNames,
    registers: [register],
    collect() {
      this.reset();
      for (const [labels, value] of read()) this.inc(labels, value);
    },
  });
}

/**
 * GET /metrics in the Prometheus text format, for a scraper holding `METRICS_TOKEN` as a bearer
 * token. Without METRICS_TOKEN the route does not exist: figures about patients' devices are not
 * published to whoever asks.
 */
export function registerMetrics(app: AppInstance, ctx: AppContext, sockets: () => number): void {
  const token = ctx.config.metricsToken;
  if (!token) return;
  const register = metricsRegistry(ctx, sockets);
  const expected = Buffer.from(token);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const sent = bearerToken(request.headers.authorization);
    const given = Buffer.from(sent ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new DomainError('metricsTokenRequired', SERVER_MESSAGES.metricsTokenRequired, {
        credentialsRejected: sent !== undefined,
      });
    }
    return reply.type(register.contentType).send(await register.metrics());
  });
}
