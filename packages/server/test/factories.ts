import type { AdminDevice, HealthReading } from '@vitalwatch/shared';
import type { BuiltApp } from '../src/app.ts';
import { createDevice, postHealth } from './device-helpers.ts';
import { createAdmin, signup, type TestUser } from './helpers.ts';

export interface DeviceOptions {
  /** Assigned to these users (no owner); none: a device nobody has yet. */
  users?: TestUser[];
  deviceName?: string;
  isValid?: boolean;
}

/**
 * Data for server tests, unique on every call, through the API as a client would make it: users,
 * one admin per test file (made on first use), devices and readings. Replaces the setup each
 * test file used to write out.
 */
export function factories(built: () => BuiltApp) {
  let admin: Promise<TestUser> | undefined;
  const theAdmin = () => {
    admin ??= createAdmin(built());
    return admin;
  };

  const device = async ({ users, ...rest }: DeviceOptions = {}): Promise<AdminDevice> =>
    createDevice(built(), await theAdmin(), {
      ...rest,
      ...(users ? { users: users.map((u) => u.user._id) } : {}),
    });

  return {
    /** A fresh user (role user), signed in. */
    user: (overrides: Record<string, string> = {}) => signup(built(), overrides),
    /** The file's admin, signed in. */
    admin: theAdmin,
    device,
    /** A fresh user and a device assigned to them. */
    async userWithDevice(deviceName?: string) {
      const user = await signup(built());
      return { user, device: await device({ users: [user], ...(deviceName ? { deviceName } : {}) }) };
    },
    /** Stores `readings` as the device sends them (HTTP ingest); fails unless all are accepted. */
    async readings(of: AdminDevice, readings: HealthReading[]): Promise<void> {
      const res = await postHealth(built(), of.apiAuthCode, readings);
      if (res.statusCode !== 202) throw new Error(`ingest failed: ${res.statusCode} ${res.body}`);
    },
  };
}
