import { type AdminDevice, adminDeviceResponse, authResponse } from '@vitalwatch/shared';
import { unique } from './helpers.ts';

export { scratchDatabase } from './scratch-database.ts';

/** The API of a server running in its own process (`server-process.ts`), over real HTTP. */
export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  timeoutMs?: number,
) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    ...(timeoutMs ? { signal: AbortSignal.timeout(timeoutMs) } : {}),
  });
  return { status: res.status, json: (await res.json()) as unknown };
}

export async function login(baseUrl: string, user: { username: string; password: string }) {
  return authResponse.parse((await post(`${baseUrl}/api/v1/user/login`, { user })).json).data;
}

/** A new user with password 'Passw0rd!'. */
export async function signupUser(baseUrl: string) {
  const username = unique('watcher');
  const password = 'Passw0rd!';
  const user = {
    fullName: 'Watcher',
    username,
    email: `${username}@example.com`,
    password,
    cnfPassword: password,
  };
  const signedUp = authResponse.parse((await post(`${baseUrl}/api/v1/user/create`, { user })).json).data;
  return { ...signedUp, username, password };
}

/** An active device assigned to `userId`, added by the admin whose access token is given. */
export async function addDevice(baseUrl: string, adminToken: string, userId: string): Promise<AdminDevice> {
  const res = await post(
    `${baseUrl}/api/v1/admin/add-device`,
    { deviceName: 'Mum’s watch', isValid: true, users: [userId] },
    { authorization: `Bearer ${adminToken}` },
  );
  return adminDeviceResponse.parse(res.json).data.device;
}

export const ingest = (
  baseUrl: string,
  apiKey: string,
  kind: 'health' | 'alert',
  body: object,
  timeoutMs?: number,
) => post(`${baseUrl}/api/v1/ingest/${kind}`, body, { 'x-api-key': apiKey }, timeoutMs);
