import { z } from 'zod';

/**
 * Backups of the whole database (`POST /api/v1/admin/backup`, `npm run backup`). The passphrase
 * encrypts the file (AES-256-GCM, key from scrypt); 12 characters at least, as NIST SP 800-63B
 * asks of a memorised secret chosen by its holder (its minimum is 8; a key for years of health
 * data gets more).
 */
export const BACKUP_PASSPHRASE_MIN = 12;

export const BACKUP_MESSAGES = {
  passphraseTooShort: `The passphrase must be at least ${BACKUP_PASSPHRASE_MIN} characters`,
  passphraseTooLong: 'The passphrase is too long',
  downloadFailed: 'The backup could not be downloaded',
  downloaded: 'Backup downloaded',
} as const;

/** The header with which `npm run backup` proves it runs beside the server (the token in DATA_DIR). */
export const BACKUP_TOKEN_HEADER = 'x-backup-token';

export const backupBody = z
  .object({
    passphrase: z
      .string()
      .min(BACKUP_PASSPHRASE_MIN, BACKUP_MESSAGES.passphraseTooShort)
      .max(1024, BACKUP_MESSAGES.passphraseTooLong)
      .optional(),
  })
  .nullish();
