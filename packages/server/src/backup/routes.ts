import { PassThrough } from 'node:stream';
import { BACKUP_TOKEN_HEADER, contracts } from '@vitalwatch/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requires } from '../auth/requirement.ts';
import type { AppContext, AppInstance } from '../context.ts';
import { sendFile, serveContracts } from '../http/contract-routes.ts';

/**
 * `contracts.backup.download`: the whole database as a backup file, streamed as a download. An
 * admin's session, or the local token `npm run backup` reads from DATA_DIR. Audit-logged.
 */
export async function backupRoutes(app: AppInstance, ctx: AppContext) {
  const adminOnly = ctx.guards.requireRole('admin');
  const adminOrLocal = requires('role', async (request: FastifyRequest, reply: FastifyReply) => {
    const token = request.headers[BACKUP_TOKEN_HEADER];
    if (typeof token === 'string' && ctx.backups.isLocalToken(token)) return;
    await adminOnly(request, reply);
  });
  ctx.backups.writeLocalToken();

  serveContracts(app, { admin: adminOrLocal }, contracts.backup, {
    download: async (request, reply) => {
      const passphrase = request.body?.passphrase;
      await ctx.audit.record(request, {
        action: 'backup-download',
        detail: { encrypted: passphrase !== undefined, via: request.auth ? 'admin' : 'local-token' },
      });
      const body = new PassThrough();
      ctx.backups.write(body, passphrase).catch((err: unknown) => {
        // The client sees a file without its trailer, which restore refuses.
        request.log.error({ err }, 'backup failed');
        body.destroy(err instanceof Error ? err : new Error(String(err)));
      });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      reply.header('cache-control', 'no-store');
      return sendFile(reply, 'application/octet-stream', `vitalwatch-${stamp}.vwb`, body);
    },
  });
}
