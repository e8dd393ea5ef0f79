import { z } from 'zod';

/** `GET /healthz`: the process answers. */
export const livenessResponse = z.object({ status: z.literal('ok') });

/** `GET /readyz` (200 ready, 503 not): each dependency's state; Redis is reported, not required. */
export const readinessResponse = z.object({
  status: z.enum(['ready', 'not ready']),
  checks: z.partialRecord(z.enum(['database', 'mqtt', 'redis']), z.enum(['ok', 'down'])),
});
