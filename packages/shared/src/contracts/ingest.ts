import { z } from 'zod';
import { alertIngestBody } from '../schemas/alert.ts';
import { envelope } from '../schemas/common.ts';
import { deviceInfoBody, GATEWAY_MESSAGES } from '../schemas/gateway.ts';
import { HEALTH_MESSAGES, healthIngestBody, ingestResult } from '../schemas/health.ts';
import { defineContracts } from './contract.ts';

/** `/api/v1/ingest/*`: devices post readings and events with their API key (`X-Api-Key`). */
export const ingestContracts = defineContracts('/ingest', 'device', {
  health: {
    method: 'POST',
    path: '/health',
    summary: 'Device: send one reading or a batch',
    body: healthIngestBody,
    response: ingestResult,
    status: 202,
    message: HEALTH_MESSAGES.accepted,
    errors: [503],
  },
  alert: {
    method: 'POST',
    path: '/alert',
    summary: 'Device: send one alert event or a batch',
    body: alertIngestBody,
    response: ingestResult,
    status: 202,
    message: HEALTH_MESSAGES.accepted,
    errors: [503],
  },
  deviceInfo: {
    method: 'POST',
    path: '/device-info',
    summary: 'Device: its make and model (a Bluetooth gateway reads them)',
    body: deviceInfoBody,
    response: envelope(z.object({})),
    message: GATEWAY_MESSAGES.infoSaved,
  },
});

/** An external broker's hook answer, in EMQX's format (no envelope). */
export const brokerHookAnswer = z.object({ result: z.enum(['allow', 'deny']), is_superuser: z.boolean() });

/**
 * `/api/v1/mqtt/*`: an external broker's HTTP hooks (EMQX's HTTP authentication and
 * authorization), served only with MQTT_URL. Their answers are EMQX's, not the envelope.
 */
export const brokerHookContracts = defineContracts('/mqtt', 'public', {
  auth: {
    method: 'POST',
    path: '/auth',
    summary: 'External broker (MQTT_URL): may this client connect?',
    body: z.object({
      username: z.string().max(200).optional(),
      password: z.string().max(500).optional(),
      clientid: z.string().max(200).optional(),
    }),
    response: brokerHookAnswer,
    envelope: false,
  },
  acl: {
    method: 'POST',
    path: '/acl',
    summary: 'External broker (MQTT_URL): may this client use this topic?',
    body: z.object({
      username: z.string().max(200).optional(),
      topic: z.string().min(1).max(500),
      action: z.enum(['publish', 'subscribe']),
    }),
    response: brokerHookAnswer,
    envelope: false,
  },
});
