import type { ComponentStatus, SystemComponent, SystemStatus } from '@vitalwatch/shared';
import type { ScheduledBackups } from '../backup/schedule.ts';
import type { EventLoopMonitor } from './event-loop-monitor.ts';
import {
  type ProbeResult,
  type PushDeliveryStatus,
  probeApi,
  probeDatabase,
  probeEmail,
  probeNotifications,
} from './probes.ts';

/** No single check may hold the status page longer than this. */
export const PROBE_TIMEOUT_MS = 2000;

export interface SystemStatusSources {
  ping: () => Promise<void>;
  monitor: EventLoopMonitor;
  /** Read on every check: the push module may attach itself after start-up. */
  push: PushDeliveryStatus;
  vapidKeysPresent: boolean;
  smtpUrl: string | undefined;
  dataDir: string;
  /** Scheduled backups, when BACKUP_DIR is set. */
  backups?: () => ScheduledBackups | undefined;
  timeoutMs?: number;
}

/**
 * Scheduled backups: degraded when the last run failed, or when none succeeded for two periods
 * (the timer stopped, or every run fails before it can be recorded).
 */
export function backupsComponent(scheduled: ScheduledBackups, now = Date.now()): SystemComponent {
  const { lastSuccessAt, lastFailureAt, lastError } = scheduled.status;
  const periodMs = scheduled.options.everyHours * 3600_000;
  if (lastFailureAt && (!lastSuccessAt || lastFailureAt > lastSuccessAt)) {
    return { name: 'Backups', status: 'degraded', detail: `The last backup failed: ${lastError}` };
  }
  if (!lastSuccessAt) {
    return {
      name: 'Backups',
      status: 'operational',
      detail: `No backup yet: one every ${scheduled.options.everyHours} h`,
    };
  }
  if (now - lastSuccessAt.getTime() > 2 * periodMs) {
    return { name: 'Backups', status: 'degraded', detail: `No backup since ${lastSuccessAt.toISOString()}` };
  }
  return { name: 'Backups', status: 'operational', detail: `Last backup ${lastSuccessAt.toISOString()}` };
}

/** A probe that does not settle in time counts as failed with `onTimeout`. */
async function bounded(
  probe: () => Promise<ProbeResult> | ProbeResult,
  timeoutMs: number,
  onTimeout: ComponentStatus,
): Promise<ProbeResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ProbeResult>((resolve) => {
    timer = setTimeout(
      () => resolve({ status: onTimeout, detail: `No answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([Promise.resolve().then(probe), timeout]);
  } catch {
    return { status: onTimeout, detail: 'The check itself failed' };
  } finally {
    clearTimeout(timer);
  }
}

/** All operational → operational; the database down → outage; anything else not operational → degraded. */
export function overallStatus(components: SystemComponent[]): ComponentStatus {
  const database = components.find((c) => c.name === 'Database');
  if (database?.status === 'outage') return 'outage';
  return components.every((c) => c.status === 'operational') ? 'operational' : 'degraded';
}

/** Runs the four platform checks in parallel, each bounded, for `POST /admin/system-status`. */
export class SystemStatusService {
  private readonly sources: SystemStatusSources;

  constructor(sources: SystemStatusSources) {
    this.sources = sources;
  }

  async check(): Promise<SystemStatus> {
    const s = this.sources;
    const ms = s.timeoutMs ?? PROBE_TIMEOUT_MS;
    const [database, api, notifications, email] = await Promise.all([
      bounded(() => probeDatabase(s.ping), ms, 'outage'),
      bounded(() => probeApi(s.monitor), ms, 'degraded'),
      bounded(() => probeNotifications(s.vapidKeysPresent, s.push), ms, 'degraded'),
      bounded(() => probeEmail(s.smtpUrl, s.dataDir, ms), ms, 'degraded'),
    ]);
    const components: SystemComponent[] = [
      { name: 'Database', ...database },
      { name: 'API Service', ...api },
      { name: 'Notification Service', ...notifications },
      { name: 'Email Service', ...email },
    ];
    const scheduled = s.backups?.();
    if (scheduled) components.push(backupsComponent(scheduled));
    return { overallStatus: overallStatus(components), components };
  }
}
