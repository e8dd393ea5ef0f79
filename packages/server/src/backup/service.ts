import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/index.ts';
import type { BackupKeys } from './format.ts';
import { type ScheduledBackupOptions, ScheduledBackups } from './schedule.ts';
import { type SnapshotProgress, type SnapshotResult, writeBackup } from './snapshot.ts';

/** The local token's file in DATA_DIR: whoever may read DATA_DIR may read the whole database anyway. */
export const BACKUP_TOKEN_FILE = 'backup-token';

/**
 * Backups of the running server's database (`ctx.backups`): streamed to an admin's download or to
 * `npm run backup`, which proves it runs on the server's machine with the token kept in DATA_DIR.
 */
export class BackupService {
  private readonly database: Database;
  private readonly keys: BackupKeys;
  private readonly dataDir: string;
  private token: Buffer | undefined;
  /** Set when BACKUP_DIR is: backups on a timer. */
  scheduled: ScheduledBackups | undefined;

  constructor(database: Database, keys: BackupKeys, dataDir: string) {
    this.database = database;
    this.keys = keys;
    this.dataDir = dataDir;
  }

  /** A fresh local token in DATA_DIR/backup-token (owner-only), for this process's lifetime. */
  writeLocalToken(): void {
    this.token = randomBytes(32);
    writeFileSync(path.join(this.dataDir, BACKUP_TOKEN_FILE), this.token.toString('hex'), { mode: 0o600 });
  }

  /** Start the timer of scheduled backups, when configured; the directory is made now. */
  schedule(options: ScheduledBackupOptions | undefined, log: FastifyBaseLogger): void {
    if (!options) return;
    mkdirSync(options.dir, { recursive: true });
    this.scheduled = new ScheduledBackups((out, passphrase) => this.write(out, passphrase), options, log);
    this.scheduled.start();
  }

  isLocalToken(value: string): boolean {
    if (!this.token || !/^[0-9a-f]{64}$/.test(value)) return false;
    return timingSafeEqual(Buffer.from(value, 'hex'), this.token);
  }

  write(
    out: Writable,
    passphrase: string | undefined,
    onProgress?: (p: SnapshotProgress) => void,
  ): Promise<SnapshotResult> {
    return writeBackup({ database: this.database, keys: this.keys }, out, passphrase, onProgress);
  }
}
