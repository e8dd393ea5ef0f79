import { backupBody } from '../schemas/backup.ts';
import { defineContracts } from './contract.ts';

/**
 * `POST /api/v1/admin/backup`: the whole database as a backup file. An admin's session, or the
 * local token `npm run backup` reads from DATA_DIR (the server's hook for `admin` here takes either).
 */
export const backupContracts = defineContracts('/admin', 'admin', {
  download: {
    method: 'POST',
    path: '/backup',
    summary: 'Download a backup of the whole database (encrypted with a passphrase)',
    body: backupBody,
    produces: 'application/octet-stream',
  },
});
