import { Readable } from 'node:stream';
import { contracts } from '@vitalwatch/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { caller } from '../../auth/plugin.ts';
import type { AppContext, AppInstance } from '../../context.ts';
import { serveContracts, userAuthHooks } from '../../http/contract-routes.ts';
import {
  capabilityStatement,
  EXPORT_FORMATS,
  EXPORT_OPERATION_ID,
  exportOperationDefinition,
} from './capability.ts';
import { isoMicros } from './dates.ts';
import { exportBody } from './export-body.ts';
import { answerUnknownPaths, FHIR_JSON, fhirErrorHandler, invalid, notFound } from './http.ts';
import { observationId, parseObservationId } from './observation-id.ts';
import { deviceResource, type FhirResource, observationOf, wearerId, wearerResource } from './resources.ts';
import { countOf, cursorOf, type ExportQuery, exportFormatOf, searchPeriod } from './search.ts';

/** Observations per query of `$export`: memory stays bounded by one page whatever the period. */
const EXPORT_PAGE_ROWS = 5_000;
const operationParams = contracts.fhir.device.params.extend({ operation: z.string().max(64) });
/** The audit detail of a period (none when nothing can match). */
const periodDetail = (period: { from: bigint; to: bigint } | null): Record<string, string> =>
  period ? { from: isoMicros(period.from), to: isoMicros(period.to) } : {};

/**
 * FHIR R4 (read only) under /fhir/R4: vital-signs Observations of the caller's devices (search
 * and read), a device and its wearer, and a device's whole period as one download. Same sign-in
 * and visibility as the rest of the API (what the caller may not see is 404); every answer and
 * every error is FHIR JSON. Searches and downloads are in the audit log.
 */
export async function fhirRoutes(app: AppInstance, ctx: AppContext) {
  app.setErrorHandler(fhirErrorHandler);
  answerUnknownPaths(app);
  /** Where fullUrls and links point: PUBLIC_URL when set, else the address the request came to. */
  const base = (request: FastifyRequest) =>
    `${ctx.config.publicUrl ?? `${request.protocol}://${request.host}`}${app.prefix}`;

  /** The device the caller may see, with the caller's temperature unit; 404 (`missing`) otherwise. */
  async function visibleDevice(request: FastifyRequest, deviceId: string, missing = `Device/${deviceId}`) {
    const found = await ctx.fhir.visibleDevice(caller(request).userId, deviceId);
    if (!found) throw notFound(`${missing} is not known`);
    return found;
  }
  const deviceOf = (device: { id: string; deviceName: string; isValid: boolean }) =>
    deviceResource({ id: device.id, name: device.deviceName, isValid: device.isValid });
  const heavy = ctx.heavyReads.gate;

  serveContracts(app, userAuthHooks(ctx.guards), contracts.fhir, {
    metadata: async (request, reply) => reply.type(FHIR_JSON).send(capabilityStatement(base(request))),

    operationDefinition: async (request, reply) => {
      if (request.params.id !== EXPORT_OPERATION_ID)
        throw notFound(`OperationDefinition/${request.params.id} is not known`);
      return reply.type(FHIR_JSON).send(exportOperationDefinition(base(request)));
    },

    device: async (request, reply) => {
      const { device } = await visibleDevice(request, request.params.id);
      return reply.type(FHIR_JSON).send(deviceOf(device));
    },

    patient: async (request, reply) => {
      const id = request.params.id;
      const deviceId = id.replace(/^wearer-/, '');
      await visibleDevice(request, wearerId(deviceId) === id ? deviceId : '', `Patient/${id}`);
      return reply.type(FHIR_JSON).send(wearerResource(deviceId));
    },

    observation: async (request, reply) => {
      const missing = `Observation/${request.params.id}`;
      const key = parseObservationId(request.params.id);
      const { unit } = await visibleDevice(request, key?.deviceId ?? '', missing);
      const row = key && (await ctx.fhir.observation(key));
      if (!row) throw notFound(`${missing} is not known`);
      return reply.type(FHIR_JSON).send(observationOf(row, unit));
    },

    search: {
      preHandler: heavy,
      handler: async (request, reply) => {
        const q = request.query;
        if (!q.device) throw invalid('device is required (Device/<id> or <id>)', 'device');
        const { device, unit } = await visibleDevice(request, q.device.replace(/^Device\//, ''));
        const count = countOf(q._count);
        const after = cursorOf(q._cursor, device.id);
        const { period, defaults } = searchPeriod(q.date);
        const rows = period
          ? await ctx.fhir.observationPage({ deviceId: device.id, ...period }, after, count + 1)
          : [];
        await ctx.audit.record(request, {
          action: 'data-export',
          targetType: 'device',
          targetId: device.id,
          detail: { format: 'fhir', kind: 'Observation search', ...periodDetail(period) },
        });
        const root = base(request);
        // The search as understood, with the bounds the server chose, so that a link means the same later.
        const search = new URLSearchParams({ device: `Device/${device.id}`, _count: String(count) });
        for (const value of [...q.date, ...defaults]) search.append('date', value);
        const link = (relation: string, cursor: string | undefined) => ({
          relation,
          url: `${root}/Observation?${search}${cursor ? `&_cursor=${cursor}` : ''}`,
        });
        const links = [link('self', after ? observationId(after) : undefined)];
        const page = rows.slice(0, count);
        if (rows.length > count) links.push(link('next', observationId(page.at(-1)!.key)));
        const entry = page.map((row) => {
          const resource = observationOf(row, unit);
          return { fullUrl: `${root}/Observation/${resource.id}`, resource, search: { mode: 'match' } };
        });
        return reply.type(FHIR_JSON).send({
          resourceType: 'Bundle',
          type: 'searchset',
          link: links,
          ...(entry.length > 0 ? { entry } : {}),
        });
      },
    },

    export: {
      preHandler: heavy,
      handler: (request, reply) => exportDevice(request, reply, request.params.id, request.query),
    },
  });

  /** `$export`: the device, its wearer and the period's Observations, written as they are read. */
  async function exportDevice(
    request: FastifyRequest,
    reply: FastifyReply,
    deviceId: string,
    q: ExportQuery,
  ) {
    const { device, unit } = await visibleDevice(request, deviceId);
    const format = exportFormatOf(q._outputFormat);
    const bounds = [...(q._since ? [`ge${q._since}`] : []), ...(q._until ? [`le${q._until}`] : [])];
    const { period } = searchPeriod(bounds);
    await ctx.audit.record(request, {
      action: 'data-export',
      targetType: 'device',
      targetId: device.id,
      detail: { format: 'fhir', kind: format === 'bundle' ? 'Bundle' : 'ndjson', ...periodDetail(period) },
    });
    async function* resources(): AsyncGenerator<FhirResource[]> {
      yield [deviceOf(device), wearerResource(device.id)];
      if (!period) return;
      for await (const rows of ctx.fhir.observationPages(
        { deviceId: device.id, ...period },
        EXPORT_PAGE_ROWS,
      ))
        yield rows.map((row) => observationOf(row, unit));
    }
    const day = (us: bigint) => isoMicros(us).slice(0, 10);
    const span = period ? `-${day(period.from)}-${day(period.to)}` : '';
    const extension = format === 'bundle' ? 'json' : 'ndjson';
    return reply
      .type(`${EXPORT_FORMATS[format]}; charset=utf-8`)
      .header('content-disposition', `attachment; filename="vitalwatch-fhir${span}.${extension}"`)
      .send(Readable.from(exportBody(format, base(request), resources())));
  }
  // `%24export` arrives here: a `$` spelled so in a path segment is not decoded, in a parameter it is.
  app.get(
    '/Device/:id/:operation',
    {
      onRequest: ctx.guards.requireAuth,
      preHandler: heavy,
      schema: { params: operationParams, querystring: contracts.fhir.export.query, hide: true },
    },
    async (request, reply) => {
      if (request.params.operation !== '$export')
        throw notFound(`Device/${request.params.id}/${request.params.operation} is not known`);
      return exportDevice(request, reply, request.params.id, request.query);
    },
  );
}
