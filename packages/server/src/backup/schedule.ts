import { createWriteStream, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { SnapshotResult } from './snapshot.ts';

/** Writes one backup file to `out` (BackupService.write). */
export type WriteBackup = (out: Writable, passphrase: string | undefined) => Promise<SnapshotResult>;

export interface ScheduledBackupOptions {
  /** BACKUP_DIR: where the files go. */
  dir: string;
  /** BACKUP_EVERY_HOURS. */
  everyHours: number;
  /** BACKUP_KEEP: the newest this many files are kept, older ones deleted. */
  keep: number;
  /** BACKUP_PASSPHRASE: files are encrypted when it is set. */
  passphrase: string | undefined;
}

export interface ScheduledBackupStatus {
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
  lastError: string | null;
  failures: number;
  successes: number;
}

/** The half-written file of a failed run; a directory that is gone leaves nothing to remove. */
function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // ENOTDIR, EACCES: there is no file of ours there.
  }
}

const FILE = /^vitalwatch-\d{8}T\d{6}Z\.vwb$/;
const stampOf = (at: Date) =>
  at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/**
 * Backups of the running server on a timer (off unless BACKUP_DIR is set): each written to a
 * `.partial` file and renamed once whole, then all but the newest BACKUP_KEEP deleted. A failure
 * is logged, counted (`/metrics`) and shown on the admin's System Status; the next run tries again.
 */
export class ScheduledBackups {
  readonly status: ScheduledBackupStatus = {
    lastSuccessAt: null,
    lastFailureAt: null,
    lastError: null,
    failures: 0,
    successes: 0,
  };
  readonly options: ScheduledBackupOptions;
  private readonly writeBackup: WriteBackup;
  private readonly log: FastifyBaseLogger;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(writeBackup: WriteBackup, options: ScheduledBackupOptions, log: FastifyBaseLogger) {
    this.writeBackup = writeBackup;
    this.options = options;
    this.log = log;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.runOnce(), this.options.everyHours * 3600_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One backup now (a run already under way is joined, not doubled). */
  runOnce(now = new Date()): Promise<void> {
    this.running ??= this.write(now).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async write(now: Date): Promise<void> {
    const { dir, keep, passphrase } = this.options;
    const file = path.join(dir, `vitalwatch-${stampOf(now)}.vwb`);
    const partial = `${file}.partial`;
    try {
      const result = await this.writeBackup(createWriteStream(partial, { mode: 0o600 }), passphrase);
      renameSync(partial, file);
      const old = readdirSync(dir)
        .filter((f) => FILE.test(f))
        .sort()
        .slice(0, -keep);
      for (const f of old) rmSync(path.join(dir, f), { force: true });
      this.status.successes += 1;
      this.status.lastSuccessAt = new Date();
      this.log.info(
        { file, rows: result.rows, bytes: result.bytes, deleted: old },
        'scheduled backup written',
      );
    } catch (err) {
      removeQuietly(partial);
      this.status.failures += 1;
      this.status.lastFailureAt = new Date();
      this.status.lastError = (err as Error).message;
      this.log.error({ err, file }, 'scheduled backup failed');
    }
  }
}
