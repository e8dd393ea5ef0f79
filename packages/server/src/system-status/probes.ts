import { randomUUID } from 'node:crypto';
import { mkdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ComponentStatus } from '@vitalwatch/shared';
import { loadNodemailer } from '../lib/optional-packages.ts';
import type { EventLoopMonitor } from './event-loop-monitor.ts';

/** What one check found; the component's name is added by the caller. */
export interface ProbeResult {
  status: ComponentStatus;
  detail: string;
}

/** Push delivery as the status page sees it; provided by the push module once it runs. */
export interface PushDeliveryStatus {
  /** Share of failed sends among the recent ones (0..1), or null when nothing was sent recently. */
  recentFailureRate(): number | null;
  /** VAPID keys are loaded and sending is possible. */
  configured(): boolean;
}

/** Event-loop lag (p90) above which requests visibly wait. */
export const API_LAG_DEGRADED_MS = 200;
/** Share of failed push sends above which notifications are considered unreliable. */
export const PUSH_FAILURE_DEGRADED_RATE = 0.2;

const operational = (detail: string): ProbeResult => ({ status: 'operational', detail });
const degraded = (detail: string): ProbeResult => ({ status: 'degraded', detail });

/**
 * A short reason safe to show an admin: an error code, never a URL or credentials. The system
 * code in the message (ECONNREFUSED) says more than a library's wrapper code (ESOCKET).
 */
const reason = (err: unknown): string => {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  const systemCode = typeof message === 'string' ? message.match(/\bE[A-Z]{3,20}\b/)?.[0] : undefined;
  if (systemCode) return systemCode;
  return typeof code === 'string' && /^[A-Z_0-9]{2,40}$/.test(code) ? code : 'error';
};

export async function probeDatabase(ping: () => Promise<void>): Promise<ProbeResult> {
  const started = performance.now();
  try {
    await ping();
  } catch (err) {
    return { status: 'outage', detail: `The database did not answer a query (${reason(err)})` };
  }
  return operational(`Answered a query in ${Math.round(performance.now() - started)} ms`);
}

export function probeApi(monitor: EventLoopMonitor): ProbeResult {
  const lag = Math.round(monitor.lagMs());
  return lag >= API_LAG_DEGRADED_MS
    ? degraded(`Requests are delayed: event loop ${lag} ms behind`)
    : operational(`Serving requests; event loop lag ${lag} ms`);
}

export function probeNotifications(
  vapidKeysPresent: boolean,
  push: PushDeliveryStatus | undefined,
): ProbeResult {
  if (!vapidKeysPresent || (push && !push.configured()))
    return degraded('Push keys (VAPID) are not configured');
  if (!push) return degraded('Push delivery is not running on this server');
  const rate = push.recentFailureRate();
  if (rate === null) return operational('Push keys present; no recent sends');
  const percent = Math.round(rate * 100);
  return rate > PUSH_FAILURE_DEGRADED_RATE
    ? degraded(`${percent}% of recent push sends failed`)
    : operational(`Push keys present; ${percent}% of recent sends failed`);
}

/** SMTP when configured (connect and greet), else the outbox folder must take a file. */
export async function probeEmail(
  smtpUrl: string | undefined,
  dataDir: string,
  timeoutMs: number,
): Promise<ProbeResult> {
  return smtpUrl ? probeSmtp(smtpUrl, timeoutMs) : probeOutbox(path.join(dataDir, 'outbox'));
}

async function probeSmtp(url: string, timeoutMs: number): Promise<ProbeResult> {
  const { createTransport } = await loadNodemailer();
  const transport = createTransport({
    url,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  try {
    await transport.verify();
    return operational('SMTP server accepted a connection');
  } catch (err) {
    return degraded(`SMTP server is unreachable (${reason(err)})`);
  } finally {
    transport.close();
  }
}

async function probeOutbox(outbox: string): Promise<ProbeResult> {
  const probe = path.join(outbox, `.probe-${randomUUID()}`);
  try {
    await mkdir(outbox, { recursive: true });
    await writeFile(probe, 'probe');
    await unlink(probe);
    return operational('Mail is written to the outbox folder');
  } catch (err) {
    return degraded(`The outbox folder is not writable (${reason(err)})`);
  }
}
