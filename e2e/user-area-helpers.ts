import { type APIRequestContext, expect } from '@playwright/test';
import { ADMIN } from './fixtures.ts';

/** Helpers of the user-area end-to-end tests: devices made by the admin API, readings and alerts ingested. */

export interface CreatedDevice {
  _id: string;
  deviceName: string;
  activationCode: string;
  apiAuthCode: string;
}

async function session(request: APIRequestContext, username: string, password: string) {
  const res = await request.post('/api/v1/user/login', { data: { user: { username, password } } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { data: { accessToken: string; user: { _id: string } } }).data;
}

async function token(request: APIRequestContext, username: string, password: string): Promise<string> {
  return (await session(request, username, password)).accessToken;
}

/** The admin adds an active, unassigned device and returns its codes. */
export async function createDevice(request: APIRequestContext, deviceName: string): Promise<CreatedDevice> {
  const admin = await token(request, ADMIN.username, ADMIN.password);
  const res = await request.post('/api/v1/admin/add-device', {
    headers: { Authorization: `Bearer ${admin}` },
    data: { deviceName, isValid: true, users: [] },
  });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: { device: CreatedDevice } }).data.device;
}

/** The user adds the device by its activation code through the API (when the form is not under test). */
export async function addDeviceForUser(
  request: APIRequestContext,
  user: { username: string; password: string },
  device: CreatedDevice,
  deviceName: string,
) {
  const access = await token(request, user.username, user.password);
  const res = await request.post('/api/v1/device/add-device', {
    headers: { Authorization: `Bearer ${access}` },
    data: { data: { activationCode: device.activationCode, deviceName } },
  });
  expect(res.status()).toBe(200);
}

/**
 * A second person adds the device by its code, which waits for an owner (care circle, issue 26),
 * and the owner confirms them.
 */
export async function joinDeviceByCode(
  request: APIRequestContext,
  owner: { username: string; password: string },
  user: { username: string; password: string },
  device: CreatedDevice,
) {
  const joiner = await session(request, user.username, user.password);
  const added = await request.post('/api/v1/device/add-device', {
    headers: { Authorization: `Bearer ${joiner.accessToken}` },
    data: { data: { activationCode: device.activationCode } },
  });
  expect(added.status()).toBe(403);
  const confirmed = await request.post(`/api/v1/circle/${device._id}/confirm`, {
    headers: { Authorization: `Bearer ${await token(request, owner.username, owner.password)}` },
    data: { userId: joiner.user._id },
  });
  expect(confirmed.status()).toBe(200);
}

export interface Reading {
  recordedAt?: string;
  spo2?: number;
  heartRate?: number;
  temperature?: number;
  battery?: number;
}

/** The device sends readings over HTTP (X-Api-Key); answers once they are stored. */
export async function ingestHealth(
  request: APIRequestContext,
  device: CreatedDevice,
  body: Reading | Reading[],
) {
  const res = await request.post('/api/v1/ingest/health', {
    headers: { 'X-Api-Key': device.apiAuthCode },
    data: body,
  });
  expect(res.status()).toBe(202);
}

export interface AlertEvent {
  alertType: string;
  recordedAt?: string;
  alertTitle?: string;
}

/** The device raises events (FALL, SOS…). */
export async function ingestAlerts(request: APIRequestContext, device: CreatedDevice, body: AlertEvent[]) {
  const res = await request.post('/api/v1/ingest/alert', {
    headers: { 'X-Api-Key': device.apiAuthCode },
    data: body,
  });
  expect(res.status()).toBe(202);
}

/** The name of a calendar day button ("1, Sunday 01/11/2026") ends with dd/mm/yyyy, in the browser's (= this machine's) time zone. */
export function dayLabel(date: Date): RegExp {
  const two = (n: number) => String(n).padStart(2, '0');
  return new RegExp(`${two(date.getDate())}/${two(date.getMonth() + 1)}/${date.getFullYear()}$`);
}
