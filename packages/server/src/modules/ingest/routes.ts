import { contracts } from '@vitalwatch/shared';
import type { FastifyRequest } from 'fastify';
import { deviceAuthLimits } from '../../auth/device-auth-limits.ts';
import { sharedFailureThrottle } from '../../auth/failure-throttle.ts';
import { requires } from '../../auth/requirement.ts';
import type { AppContext, AppInstance } from '../../context.ts';
import { serveContracts } from '../../http/contract-routes.ts';
import type { DeviceRow } from '../device/service.ts';
import { apiKeyAuthenticator } from './api-key-auth.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The device behind `X-Api-Key`, set by the ingest routes' onRequest hook. */
    ingestDevice: DeviceRow | null;
  }
}

/** A full batch of 500 readings is about 60 KiB; this leaves room without inviting abuse. */
export const INGEST_BODY_LIMIT = 512 * 1024;
export const DEFAULT_INGEST_RATE_PER_DEVICE = 100;

const device = (request: FastifyRequest): DeviceRow => request.ingestDevice!;

/** `/api/v1/ingest/*`: devices post readings and events with their API key. */
export async function ingestRoutes(app: AppInstance, ctx: AppContext) {
  const { ingest } = ctx;
  app.decorateRequest('ingestDevice', null);

  const limits = deviceAuthLimits(ctx.config.deviceAuth);
  const failures = sharedFailureThrottle(
    ctx.redis,
    'ingest-ip-fail',
    { limit: limits.failuresPerIp, windowMs: limits.ipWindowMs },
    app.log,
  );
  const authenticate = apiKeyAuthenticator(ingest, failures, app.log);
  // Authenticate before the body is read: a stranger gets 401 (429 once their address has failed
  // too often), not a parse of their payload.
  const onRequest = requires('device', async (request: FastifyRequest) => {
    const header = request.headers['x-api-key'];
    request.ingestDevice = await authenticate(Array.isArray(header) ? header[0] : header, request.ip);
  });
  const rateLimit = {
    max: ctx.config.ingest?.ratePerDevicePerSecond ?? DEFAULT_INGEST_RATE_PER_DEVICE,
    timeWindow: 1000,
    // Per device, not per address: many devices may share one gateway's address.
    keyGenerator: (request: FastifyRequest) => `ingest:${request.ingestDevice?.id ?? request.ip}`,
  };
  const options = { bodyLimit: INGEST_BODY_LIMIT, rateLimit };

  serveContracts(app, { device: onRequest }, contracts.ingest, {
    health: {
      ...options,
      handler: async (request) => {
        const body = request.body;
        return ingest.ingestHealth(device(request), Array.isArray(body) ? body : [body]);
      },
    },
    alert: {
      ...options,
      handler: async (request) => {
        const body = request.body;
        return ingest.ingestAlerts(device(request), Array.isArray(body) ? body : [body]);
      },
    },
    // The make and model a gateway read from the wearable's Device Information service (0x180A).
    deviceInfo: {
      ...options,
      handler: async (request) => {
        await ctx.gateways.saveDeviceInfo(device(request).id, request.body);
        return {};
      },
    },
  });
}
