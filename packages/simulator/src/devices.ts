import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import type { ServerApi } from './api.ts';

/** What a simulated device needs to talk to the server. */
export const simulatedDevice = z.object({
  _id: z.string().min(1),
  deviceName: z.string().default('Simulated device'),
  apiAuthCode: z.string().min(1),
  activationCode: z.string().optional(),
});
export type SimulatedDevice = z.infer<typeof simulatedDevice>;

/** The saved file: `{ server, devices: [...] }`, or a plain array of devices. */
const devicesFile = z.union([
  z.object({ server: z.string().optional(), devices: z.array(simulatedDevice) }),
  z.array(simulatedDevice).transform((devices) => ({ server: undefined, devices })),
]);

export function loadDevices(file: string): SimulatedDevice[] | undefined {
  if (!existsSync(file)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  const parsed = devicesFile.safeParse(json);
  if (!parsed.success) {
    throw new Error(
      `${file} does not list devices with _id and apiAuthCode: ${parsed.error.issues[0]?.message}`,
    );
  }
  return parsed.data.devices;
}

export function saveDevices(file: string, server: string, devices: SimulatedDevice[]): void {
  writeFileSync(file, `${JSON.stringify({ server, devices }, null, 2)}\n`, { mode: 0o600 });
}

export interface EnsureDevicesOptions {
  api: ServerApi;
  count: number;
  /** Devices to reuse (from --api-codes or the saved file). */
  known: SimulatedDevice[];
  /** Admin session, needed only when devices must be created. */
  admin?: () => Promise<string>;
  /** Users to assign new devices to. */
  users?: string[];
  namePrefix?: string;
  onCreated?: (created: number) => void;
}

/** `count` devices: the known ones first, the rest created through the admin API. */
export async function ensureDevices(opts: EnsureDevicesOptions): Promise<SimulatedDevice[]> {
  const devices = opts.known.slice(0, opts.count);
  if (devices.length === opts.count) return devices;
  if (!opts.admin) {
    throw new Error(
      `${devices.length} devices known but ${opts.count} needed: give --admin-user and --admin-password to create the rest`,
    );
  }
  const token = await opts.admin();
  const prefix = opts.namePrefix ?? 'Simulated watch';
  while (devices.length < opts.count) {
    const batch = Array.from({ length: Math.min(20, opts.count - devices.length) }, (_, i) =>
      opts.api.addDevice(token, `${prefix} ${devices.length + i + 1}`, opts.users ?? []),
    );
    for (const d of await Promise.all(batch)) {
      devices.push({
        _id: d._id,
        deviceName: d.deviceName,
        apiAuthCode: d.apiAuthCode,
        activationCode: d.activationCode,
      });
    }
    opts.onCreated?.(devices.length);
  }
  return devices;
}
