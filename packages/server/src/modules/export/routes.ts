import { Readable } from 'node:stream';
import { ALERTS_CSV_HEADER, contracts, readingsCsvHeader, rollupCsvHeader } from '@vitalwatch/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { caller } from '../../auth/plugin.ts';
import type { AppContext, AppInstance } from '../../context.ts';
import { sendFile, serveContracts, userAuthHooks } from '../../http/contract-routes.ts';
import { csvLine } from './csv.ts';

/**
 * `contracts.export`: CSV and PDF exports under /api/v1/export, streamed a page at a time (memory stays bounded whatever the
 * period): readings (every one, or minute or hour rollups) and alerts of one device the caller
 * watches, with a header row and ISO 8601 UTC timestamps. Each export is in the audit log.
 */
export async function exportRoutes(app: AppInstance, ctx: AppContext) {
  const preHandler = ctx.heavyReads.gate;

  /** 404 unless the caller may see the device (as the health routes); audits the export in its format. */
  async function begin(
    request: FastifyRequest,
    deviceId: string,
    format: 'csv' | 'pdf',
    detail: Record<string, string>,
  ) {
    const device = await ctx.exports.deviceFor(caller(request).userId, deviceId);
    await ctx.audit.record(request, {
      action: 'data-export',
      targetType: 'device',
      targetId: deviceId,
      detail: { format, ...detail },
    });
    return device;
  }

  function sendCsv(
    reply: FastifyReply,
    name: string,
    header: readonly string[],
    lines: AsyncGenerator<(string | null | undefined)[][]>,
  ) {
    async function* body() {
      yield csvLine(header);
      for await (const page of lines) yield page.map(csvLine).join('');
    }
    return sendFile(reply, 'text/csv; charset=utf-8', name, Readable.from(body()));
  }

  const day = (iso: string) => iso.slice(0, 10);

  serveContracts(app, userAuthHooks(ctx.guards), contracts.export, {
    readings: {
      preHandler,
      handler: async (request, reply) => {
        const { deviceId } = request.params;
        const { from, to, resolution } = request.query;
        // Temperatures in the unit the user chose (Profile → Units), named in the header.
        const { unit } = await begin(request, deviceId, 'csv', { kind: 'readings', resolution, from, to });
        const lines = ctx.exports.readingLines({
          deviceId,
          from: new Date(from),
          to: new Date(to),
          resolution,
          unit,
        });
        const header = resolution === 'raw' ? readingsCsvHeader(unit) : rollupCsvHeader(unit);
        return sendCsv(reply, `vitalwatch-readings-${resolution}-${day(from)}-${day(to)}.csv`, header, lines);
      },
    },

    report: {
      preHandler,
      handler: async (request, reply) => {
        const { deviceId } = request.params;
        const { from, to, timeZone } = request.query;
        const { deviceName, unit } = await begin(request, deviceId, 'pdf', { kind: 'report', from, to });
        const period = { from: new Date(from), to: new Date(to) };
        const pdf = await ctx.exports.report(deviceId, { deviceName, ...period, timeZone, unit });
        return sendFile(reply, 'application/pdf', `vitalwatch-report-${day(from)}-${day(to)}.pdf`, pdf);
      },
    },

    alerts: {
      preHandler,
      handler: async (request, reply) => {
        const { deviceId } = request.params;
        const { from, to } = request.query;
        await begin(request, deviceId, 'csv', { kind: 'alerts', from, to });
        const lines = ctx.exports.alertLines({ deviceId, from: new Date(from), to: new Date(to) });
        return sendCsv(reply, `vitalwatch-alerts-${day(from)}-${day(to)}.csv`, ALERTS_CSV_HEADER, lines);
      },
    },
  });
}
