import {
  type AdminDevice,
  type AdminUser,
  adminDeviceResponse,
  adminDevicesResponse,
  adminUsersResponse,
  authResponse,
  type DeviceTopicKind,
  errorBody,
  ingestResult,
  loginResponse,
} from '@vitalwatch/shared';
import type { z } from 'zod';

/** A failed call: `retryable` for network errors, 429 and 5xx (the same messageId makes a retry safe). */
export class ApiError extends Error {
  readonly status: number;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;

  constructor(message: string, status: number, retryable: boolean, retryAfterMs?: number) {
    super(message);
    this.status = status;
    this.retryable = retryable;
    this.retryAfterMs = retryAfterMs;
    this.name = 'ApiError';
  }
}

export interface IngestCount {
  accepted: number;
  duplicates: number;
}

/** The few server calls the simulator and the benchmark make, every answer parsed with its schema. */
export class ServerApi {
  readonly baseUrl: string;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  async login(username: string, password: string): Promise<{ accessToken: string; userId: string }> {
    const body = await this.call('/api/v1/user/login', loginResponse, { user: { username, password } });
    if ('twoFactor' in body.data)
      throw new ApiError(
        `${username} signs in with two-factor codes (REQUIRE_ADMIN_2FA or the profile): use an account without it`,
        401,
        false,
      );
    return { accessToken: body.data.accessToken, userId: body.data.user._id };
  }

  async signup(username: string, password: string): Promise<{ accessToken: string; userId: string }> {
    const user = {
      fullName: 'Benchmark Watcher',
      username,
      email: `${username}@example.com`,
      password,
      cnfPassword: password,
    };
    const body = await this.call('/api/v1/user/create', authResponse, { user });
    return { accessToken: body.data.accessToken, userId: body.data.user._id };
  }

  async addDevice(accessToken: string, deviceName: string, users: string[] = []): Promise<AdminDevice> {
    const body = await this.call(
      '/api/v1/admin/add-device',
      adminDeviceResponse,
      { deviceName, isValid: true, users },
      { authorization: `Bearer ${accessToken}` },
    );
    return body.data.device;
  }

  /** Every account of role user (those a device can be assigned to). */
  async users(accessToken: string): Promise<AdminUser[]> {
    const body = await this.call(
      '/api/v1/admin/all-users',
      adminUsersResponse,
      { isUser: true },
      { authorization: `Bearer ${accessToken}` },
    );
    return body.data.users;
  }

  async devices(accessToken: string): Promise<AdminDevice[]> {
    const body = await this.call(
      '/api/v1/admin/all-devices',
      adminDevicesResponse,
      {},
      {
        authorization: `Bearer ${accessToken}`,
      },
    );
    return body.data.devices;
  }

  /** Sets who a device is assigned to (the whole list), keeping its name. */
  async assignDevice(accessToken: string, device: AdminDevice, users: string[]): Promise<AdminDevice> {
    const body = await this.call(
      `/api/v1/admin/update-device/${encodeURIComponent(device._id)}`,
      adminDeviceResponse,
      { deviceName: device.deviceName, users },
      { authorization: `Bearer ${accessToken}` },
    );
    return body.data.device;
  }

  /** POST /api/v1/ingest/health|alert with the device's API key: one item or a batch. */
  async ingest(apiAuthCode: string, kind: DeviceTopicKind, items: object[]): Promise<IngestCount> {
    const body = await this.call(
      `/api/v1/ingest/${kind}`,
      ingestResult,
      items.length === 1 ? items[0] : items,
      {
        'x-api-key': apiAuthCode,
      },
    );
    return body.data;
  }

  private async call<T extends z.ZodType>(
    path: string,
    schema: T,
    payload: unknown,
    headers: Record<string, string> = {},
  ): Promise<z.output<T>> {
    let response: Response;
    try {
      response = await fetch(new URL(path, this.baseUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(payload),
      });
    } catch (err) {
      const reason = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
      throw new ApiError(`${path}: cannot reach ${this.baseUrl} (${reason})`, 0, true);
    }
    const json: unknown = await response.json().catch(() => undefined);
    if (response.ok) {
      const parsed = schema.safeParse(json);
      if (parsed.success) return parsed.data;
      throw new ApiError(`${path}: unexpected answer from the server`, response.status, false);
    }
    const error = errorBody.safeParse(json);
    const message = error.success ? error.data.message : response.statusText;
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new ApiError(
      `${path}: ${response.status} ${message}`,
      response.status,
      response.status === 429 || response.status >= 500,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined,
    );
  }
}
