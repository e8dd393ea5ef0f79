import { z } from 'zod';
import { envelope } from './common.ts';

/**
 * Browser gateways for Bluetooth wearables (issue 28): a key per browser and device, shown once,
 * sent as the device's `X-Api-Key`, revocable from the device's page.
 */
export const GATEWAY_MESSAGES = {
  issued: 'Gateway key issued',
  listed: 'Gateways fetched successfully',
  revoked: 'Gateway key revoked',
  infoSaved: 'Device information saved',
} as const;

/** A device label's QR code opens `<origin>/claim/<activation code>`: sign in or up, then Add Device with it filled in. */
export const CLAIM_PATH = '/claim';

/** Every gateway key starts so: ingestion tells it from a device's own API code without a lookup. */
export const GATEWAY_KEY_PREFIX = 'vwgw_';

export const gatewayLabelField = z
  .string({ error: 'A label is required' })
  .trim()
  .min(1, 'A label is required')
  .max(80, 'The label is too long');

export const issueGatewayBody = z
  .object({ deviceId: z.string().min(1).max(64), label: gatewayLabelField })
  .strict();
export const listGatewaysBody = z.object({ deviceId: z.string().min(1).max(64) }).strict();
export const revokeGatewayBody = z
  .object({ deviceId: z.string().min(1).max(64), gatewayId: z.string().min(1).max(64) })
  .strict();

export const gateway = z.object({
  _id: z.string(),
  label: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type Gateway = z.infer<typeof gateway>;

export const issueGatewayResponse = envelope(z.object({ gateway, key: z.string() }));
export const gatewaysResponse = envelope(z.object({ gateways: z.array(gateway) }));

/** `POST /ingest/device-info`: what a wearable's Device Information service (0x180A) says it is. */
export const deviceInfoBody = z
  .object({
    make: z.string().trim().min(1).max(100).optional(),
    model: z.string().trim().min(1).max(100).optional(),
  })
  .strict()
  .refine((b) => b.make !== undefined || b.model !== undefined, { message: 'Send make, model or both' });
export type DeviceInfoBody = z.infer<typeof deviceInfoBody>;
