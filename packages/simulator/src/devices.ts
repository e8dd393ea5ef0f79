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

/**
 * Assigns `devices` to the user named `username` (role user), adding them beside whoever else is
 * assigned; those already theirs are left alone. Resolves to how many were newly assigned.
 */
export async function assignDevices(
  api: ServerApi,
  token: string,
  username: string,
  devices: readonly SimulatedDevice[],
): Promise<number> {
  const wanted = username.toLowerCase();
  const user = (await api.users(token)).find((u) => u.username.toLowerCase() === wanted);
  if (!user) {
    throw new Error(
      `--assign-to ${username}: no user of that name (sign them up first, or add them in Admin → Users; admins cannot be assigned devices)`,
    );
  }
  const ours = new Set(devices.map((d) => d._id));
  const onServer = (await api.devices(token)).filter((d) => ours.has(d._id));
  if (onServer.length < ours.size) {
    throw new Error(
      `--assign-to: ${ours.size - onServer.length} of the simulated devices are no longer on the server (delete the saved file to create new ones)`,
    );
  }
  const toAssign = onServer.filter((d) => !d.users.includes(user._id));
  for (let i = 0; i < toAssign.length; i += 20) {
    await Promise.all(
      toAssign.slice(i, i + 20).map((d) => api.assignDevice(token, d, [...d.users, user._id])),
    );
  }
  return toAssign.length;
}
