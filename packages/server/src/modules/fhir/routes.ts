import { Readable } from 'node:stream';
import { EXPORT_MAX_RANGE_DAYS } from '@vitalwatch/shared';
import type { FastifyError, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { caller } from '../../auth/plugin.ts';
import type { AppContext, AppInstance } from '../../context.ts';
import { DomainError } from '../../errors.ts';
import { HTTP_ERRORS } from '../../http/error-status.ts';
import { canSeeDevice, findDeviceById } from '../device/service.ts';
import { type ReadingCursor, readingPage, readingPages } from '../export/service.ts';
import { findUserById } from '../user/service.ts';
import {
  capabilityStatement,
  deviceResource,
  type FhirResource,
  observationsOf,
  operationOutcome,
  wearerResource,
} from './resources.ts';

const FHIR_JSON = 'application/fhir+json; charset=utf-8';
const DAY_MS = 86_400_000;
/** Readings per searchset page (each gives up to three Observations) unless `_count` says fewer. */
const DEFAULT_COUNT = 100;
const MAX_COUNT = 1000;

/** A FHIR refusal: rendered as an OperationOutcome with its status. */
class FhirError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly expression?: string,
  ) {
    super(message);
  }
}
const invalid = (message: string, expression: string) => new FhirError(400, 'invalid', message, expression);

/** `date=ge2026-11-01T00:00:00Z&date=le…` (one or both; `gt`/`lt` too) as a period of at most 90 days. */
function periodOf(date: string | string[] | undefined, now = new Date()): { from: Date; to: Date } {
  let from: Date | undefined;
  let to: Date | undefined;
  for (const value of date === undefined ? [] : [date].flat()) {
    const match = /^(ge|gt|le|lt)(.+)$/.exec(value);
    const at = match ? new Date(match[2]!) : new Date(Number.NaN);
    if (!match || Number.isNaN(at.getTime()))
      throw invalid(`date must be ge, gt, le or lt followed by a date-time: ${value}`, 'date');
    if (match[1]!.startsWith('g')) from = at;
    else to = at;
  }
  const end = to ?? now;
  const start = from ?? new Date(end.getTime() - DAY_MS);
  if (start >= end) throw invalid('the date range is empty', 'date');
  if (end.getTime() - start.getTime() > EXPORT_MAX_RANGE_DAYS * DAY_MS)
    throw invalid(`a date range covers at most ${EXPORT_MAX_RANGE_DAYS} days`, 'date');
  return { from: start, to: end };
}

const searchQuery = z.object({
  device: z.string().optional(),
  date: z.union([z.string(), z.array(z.string())]).optional(),
  _count: z.string().optional(),
  _cursor: z.string().optional(),
});
const exportQuery = z.object({ _since: z.string().optional(), _until: z.string().optional() });
const idParams = z.object({ id: z.string().max(64) });

const encodeCursor = (c: ReadingCursor) => Buffer.from(`${c.cursor}|${c.id}`).toString('base64url');
function decodeCursor(value: string): ReadingCursor {
  const [cursor, id] = Buffer.from(value, 'base64url').toString('utf8').split('|');
  if (!cursor || !id || !/^\d+$/.test(id) || Number.isNaN(Date.parse(cursor)))
    throw invalid('_cursor is not one this server gave', '_cursor');
  return { cursor, id };
}

/**
 * FHIR R4 (read only) under /fhir/R4: vital-signs Observations of the caller's devices, a
 * device, and a device's whole period as one Bundle. Same sign-in and visibility as the rest of
 * the API; every answer and every error is FHIR JSON. Downloads are in the audit log.
 */
export async function fhirRoutes(app: AppInstance, ctx: AppContext) {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof FhirError)
      return reply
        .code(err.status)
        .type(FHIR_JSON)
        .send(operationOutcome(err.code, err.message, err.expression));
    if (err instanceof DomainError) {
      const { status } = HTTP_ERRORS[err.code];
      const code =
        status === 401 ? 'login' : status === 403 ? 'forbidden' : status === 404 ? 'not-found' : 'processing';
      return reply.code(status).type(FHIR_JSON).send(operationOutcome(code, err.message));
    }
    if (err.validation) return reply.code(400).type(FHIR_JSON).send(operationOutcome('invalid', err.message));
    request.log.error({ err }, 'fhir request failed');
    return reply.code(500).type(FHIR_JSON).send(operationOutcome('exception', 'Internal server error'));
  });
  const onRequest = ctx.guards.requireAuth;

  app.get('/metadata', async (_request, reply) => reply.type(FHIR_JSON).send(capabilityStatement()));

  /** The device the caller may see, with the caller's temperature unit; 404 otherwise. */
  async function visibleDevice(request: FastifyRequest, deviceId: string) {
    const { userId } = caller(request);
    const device =
      /^[0-9a-f-]{36}$/i.test(deviceId) && (await canSeeDevice(ctx.db, userId, deviceId))
        ? await findDeviceById(ctx.db, deviceId)
        : undefined;
    if (!device) throw new FhirError(404, 'not-found', `Device/${deviceId} is not known`);
    const unit = (await findUserById(ctx.db, userId))?.temperatureUnit ?? 'F';
    return { device, unit };
  }

  const base = (request: FastifyRequest) => `${request.protocol}://${request.host}/fhir/R4`;

  app.get('/Device/:id', { onRequest, schema: { params: idParams } }, async (request, reply) => {
    const { device } = await visibleDevice(request, request.params.id);
    return reply
      .type(FHIR_JSON)
      .send(deviceResource({ id: device.id, name: device.deviceName, isValid: device.isValid }));
  });

  app.get('/Observation', { onRequest, schema: { querystring: searchQuery } }, async (request, reply) => {
    const q = request.query;
    if (!q.device) throw invalid('device is required (Device/<id> or <id>)', 'device');
    const deviceId = q.device.replace(/^Device\//, '');
    const { device, unit } = await visibleDevice(request, deviceId);
    const period = periodOf(q.date);
    const count = q._count === undefined ? DEFAULT_COUNT : Number(q._count);
    if (!Number.isInteger(count) || count < 1 || count > MAX_COUNT)
      throw invalid(`_count must be a whole number from 1 to ${MAX_COUNT}`, '_count');
    const after = q._cursor ? decodeCursor(q._cursor) : null;
    const readings = await readingPage(ctx.db, { deviceId: device.id, ...period }, after, count);
    await ctx.audit.record(request, {
      action: 'data-export',
      targetType: 'device',
      targetId: device.id,
      detail: {
        format: 'fhir',
        kind: 'Observation search',
        from: period.from.toISOString(),
        to: period.to.toISOString(),
      },
    });
    const self = new URL(`${base(request)}/Observation`);
    const params = new URLSearchParams({ device: `Device/${device.id}`, _count: String(count) });
    params.append('date', `ge${period.from.toISOString()}`);
    params.append('date', `le${period.to.toISOString()}`);
    self.search = params.toString();
    const links = [{ relation: 'self', url: self.toString() }];
    const last = readings.at(-1);
    if (readings.length === count && last) {
      const next = new URL(self);
      next.searchParams.set('_cursor', encodeCursor(last));
      links.push({ relation: 'next', url: next.toString() });
    }
    const entry = readings
      .flatMap((r) => observationsOf(r, device.id, unit))
      .map((resource) => ({
        fullUrl: `${base(request)}/Observation/${resource.id}`,
        resource,
        search: { mode: 'match' },
      }));
    return reply.type(FHIR_JSON).send({ resourceType: 'Bundle', type: 'searchset', link: links, entry });
  });

  app.get(
    '/Device/:id/$export',
    { onRequest, schema: { params: idParams, querystring: exportQuery } },
    async (request, reply) => {
      const q = request.query;
      const { device, unit } = await visibleDevice(request, request.params.id);
      const period = periodOf([
        ...(q._since ? [`ge${q._since}`] : []),
        ...(q._until ? [`le${q._until}`] : []),
      ]);
      await ctx.audit.record(request, {
        action: 'data-export',
        targetType: 'device',
        targetId: device.id,
        detail: {
          format: 'fhir',
          kind: 'Bundle',
          from: period.from.toISOString(),
          to: period.to.toISOString(),
        },
      });
      const root = base(request);
      const entry = (resource: FhirResource) =>
        JSON.stringify({ fullUrl: `${root}/${resource.resourceType}/${resource.id}`, resource });
      // One collection Bundle, written as it is read: the Device, its wearer, then every Observation.
      async function* body() {
        yield `{"resourceType":"Bundle","type":"collection","timestamp":"${new Date().toISOString()}","entry":[`;
        yield entry(deviceResource({ id: device.id, name: device.deviceName, isValid: device.isValid }));
        yield `,${entry(wearerResource(device.id))}`;
        for await (const readings of readingPages(ctx.db, { deviceId: device.id, ...period }))
          yield readings
            .flatMap((r) => observationsOf(r, device.id, unit))
            .map((o) => `,${entry(o)}`)
            .join('');
        yield ']}';
      }
      const day = (d: Date) => d.toISOString().slice(0, 10);
      return reply
        .type(FHIR_JSON)
        .header(
          'content-disposition',
          `attachment; filename="vitalwatch-fhir-${day(period.from)}-${day(period.to)}.json"`,
        )
        .header('cache-control', 'no-store')
        .send(Readable.from(body()));
    },
  );
}
