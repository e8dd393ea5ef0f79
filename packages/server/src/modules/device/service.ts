import {
  type AdminDevice,
  type AlarmSettings,
  alarmOverrides,
  DEFAULT_ALARM_SETTINGS,
  DEVICE_MESSAGES,
  effectiveAlarmSettings,
  type UserDevice,
} from '@vitalwatch/shared';
import type { AuthContext } from '../../auth/plugin.ts';
import type { Db, Tx } from '../../db/index.ts';
import { isUniqueViolation } from '../../db/sql-state.ts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import type { EventBus } from '../../lib/events.ts';
import { isUuid } from '../../lib/ids.ts';
import { valueChanges } from '../../lib/value-changes.ts';
import type { ActivationAttempts, ActivationCaller } from './activation-attempts.ts';
import { newActivationCode, newApiAuthCode, normalizeActivationCode } from './codes.ts';
import { DeviceCredentials } from './credentials.ts';
import { presentAdminDevice, presentUserDevice } from './presenter.ts';
import type { DeviceRow } from './repository.ts';
import * as repo from './repository.ts';

// What other modules use of devices: only through this file.
export { DeviceCredentials } from './credentials.ts';
export { presentAdminDevice } from './presenter.ts';
export type { DeviceRow } from './repository.ts';

export interface AdminDeviceInput {
  deviceName: string;
  isValid: boolean;
  users: string[];
  /** Those of `users` who are backup contacts. */
  backupUsers: string[];
}
/** An update leaves out what it does not change. */
export type AdminDeviceUpdate = Pick<AdminDeviceInput, 'deviceName'> & Partial<AdminDeviceInput>;
export type CodeType = 'activationCode' | 'apiAuthCode';
/** Whose name a rename changes: the caller's own (a nickname) or everyone's (the owner only). */
export type NameScope = 'personal' | 'shared';

export interface AdminDeviceUpdated {
  device: AdminDevice;
  previousName: string;
  /** Users newly assigned, and users no longer assigned. */
  assigned: string[];
  unassigned: string[];
}

/** A fresh random code colliding with a stored one is astronomically rare; a few retries settle it. */
const CODE_ATTEMPTS = 5;

export class DeviceService {
  /**
   * @param activation wrong activation codes counted per account and per address.
   * @param events told who gained or lost a device (`accessChanged`) when an admin assigns,
   *   unassigns or deletes it, or a user adds it by its code.
   * @param credentials the devices as ingestion checks them: a device whose validity, API code or
   *   existence changes is forgotten there at once on this node.
   */
  private readonly db: Db;
  private readonly activation: ActivationAttempts;
  private readonly events: EventBus;
  readonly credentials: DeviceCredentials;

  constructor(
    db: Db,
    activation: ActivationAttempts,
    events: EventBus,
    credentials: DeviceCredentials = new DeviceCredentials(db),
  ) {
    this.db = db;
    this.activation = activation;
    this.events = events;
    this.credentials = credentials;
  }

  private onChanged(deviceId: string): void {
    this.credentials.forget(deviceId);
  }

  // ---- alarm settings: admins and the device's users read them; admins and its owner change them ----

  async alarmSettings(who: AuthContext, deviceId: string) {
    const { device, canChange } = await this.alarmTarget(who, deviceId);
    return {
      settings: effectiveAlarmSettings(device.alarmSettings),
      defaults: DEFAULT_ALARM_SETTINGS,
      canChange,
    };
  }

  /**
   * Stores what differs from the defaults; takes effect from the device's next reading. Returns
   * the settings now and each value changed (`LOW_SPO2.limit`: `90 → 88`), for the audit log.
   */
  async updateAlarmSettings(who: AuthContext, deviceId: string, settings: AlarmSettings) {
    const target = await this.alarmTarget(who, deviceId);
    if (!target.canChange) throw forbidden(DEVICE_MESSAGES.ownerOnly);
    const before = effectiveAlarmSettings(target.device.alarmSettings);
    await repo.updateDevice(this.db, deviceId, { alarmSettings: alarmOverrides(settings) });
    const now = await this.alarmSettings(who, deviceId);
    return { now, changes: valueChanges(before, now.settings) };
  }

  /** The device (404 unless the caller may see it) and whether the caller may change its settings. */
  private async alarmTarget(who: AuthContext, deviceId: string) {
    if (who.role === 'admin') return { device: await this.byId(deviceId), canChange: true };
    const device = await this.ownDevice(who.userId, deviceId);
    return { device, canChange: device.circleRole === 'owner' };
  }

  // ---- admin ----

  /** Any device, for an admin; 404 for an unknown one. */
  async byId(deviceId: string): Promise<DeviceRow> {
    const device = isUuid(deviceId) ? await repo.findDeviceById(this.db, deviceId) : undefined;
    if (!device) throw notFound(DEVICE_MESSAGES.notFound);
    return device;
  }

  async listAll(): Promise<AdminDevice[]> {
    return (await repo.listDevicesWithUsers(this.db)).map(presentAdminDevice);
  }

  async create(input: AdminDeviceInput): Promise<AdminDevice> {
    const id = await this.withFreshCodes(async (tx) => {
      const userIds = await this.assignableUsers(tx, input.users);
      const device = await repo.insertDevice(tx, {
        deviceName: input.deviceName,
        isValid: input.isValid,
        activationCode: newActivationCode(),
        apiAuthCode: newApiAuthCode(),
      });
      await repo.replaceAssignments(tx, device.id, userIds);
      await this.backupContacts(tx, device.id, input.backupUsers);
      return device.id;
    });
    return this.adminView(id);
  }

  /** The device as updated, its name before, and who was assigned and unassigned (for the audit log). */
  async update(id: string, input: AdminDeviceUpdate): Promise<AdminDeviceUpdated> {
    const changed = await this.db.transaction(async (tx) => {
      const userIds = input.users && (await this.assignableUsers(tx, input.users));
      const before = isUuid(id) ? await repo.findDeviceById(tx, id) : undefined;
      const updated =
        before &&
        (await repo.updateDevice(tx, id, {
          deviceName: input.deviceName,
          ...(input.isValid === undefined ? {} : { isValid: input.isValid }),
        }));
      if (!before || !updated) throw notFound(DEVICE_MESSAGES.notFound);
      const assignments = userIds
        ? await repo.replaceAssignments(tx, id, userIds)
        : { added: [], removed: [] };
      if (input.backupUsers) await this.backupContacts(tx, id, input.backupUsers);
      return {
        previousName: before.deviceName,
        assigned: assignments.added,
        unassigned: assignments.removed,
      };
    });
    this.onChanged(id);
    const userIds = [...changed.assigned, ...changed.unassigned];
    if (userIds.length > 0) this.events.emit('accessChanged', userIds);
    return { device: await this.adminView(id), ...changed };
  }

  async changeValidity(id: string, isValid: boolean): Promise<AdminDevice> {
    const updated = isUuid(id) ? await repo.updateDevice(this.db, id, { isValid }) : undefined;
    if (!updated) throw notFound(DEVICE_MESSAGES.notFound);
    this.onChanged(id);
    return this.adminView(id);
  }

  /** A new activation code (the old one stops working) or a new API key (the device must be reconfigured). */
  async regenerateCode(id: string, codeType: CodeType): Promise<AdminDevice> {
    if (!isUuid(id)) throw notFound(DEVICE_MESSAGES.notFound);
    await this.withFreshCodes(async (tx) => {
      const patch =
        codeType === 'activationCode'
          ? { activationCode: newActivationCode() }
          : { apiAuthCode: newApiAuthCode() };
      if (!(await repo.updateDevice(tx, id, patch))) throw notFound(DEVICE_MESSAGES.notFound);
    });
    this.onChanged(id);
    return this.adminView(id);
  }

  private async backupContacts(tx: Tx, deviceId: string, backupIds: string[]): Promise<void> {
    const wanted = [...new Set(backupIds)];
    if (!wanted.every(isUuid) || (await repo.setBackupContacts(tx, deviceId, wanted)) !== wanted.length) {
      throw badRequest(DEVICE_MESSAGES.backupNotAssigned, [
        { path: 'backupUsers', message: DEVICE_MESSAGES.backupNotAssigned },
      ]);
    }
  }

  /**
   * Deleting a device deletes its readings, alerts and assignments with it. An admin deletes a
   * device deliberately (after a confirmation); refusing would leave a device that ever sent
   * data impossible to remove, and orphaned health data nobody can reach helps no one.
   */
  async delete(id: string): Promise<void> {
    const userIds = await this.db.transaction(async (tx) => {
      const granted = isUuid(id) ? await repo.grantedUserIds(tx, id) : [];
      if (!isUuid(id) || !(await repo.deleteDevice(tx, id))) throw notFound(DEVICE_MESSAGES.notFound);
      return granted;
    });
    this.onChanged(id);
    if (userIds.length > 0) this.events.emit('accessChanged', userIds);
  }

  // ---- users ----

  async listForUser(userId: string): Promise<UserDevice[]> {
    return (await repo.listUserDevices(this.db, userId)).map(presentUserDevice);
  }

  /**
   * Assign the caller to the device with this code (typed case-insensitively, dash optional). A
   * code that matches no device counts against the caller's account and address (ActivationAttempts).
   * The first to add a device owns it; anyone after waits for an owner to confirm them (`pending`;
   * `firstTime` unless they had used the code before).
   */
  async addByActivationCode(
    who: ActivationCaller,
    code: string,
    deviceName?: string,
  ): Promise<{ device: UserDevice } | { pending: { deviceId: string; firstTime: boolean } }> {
    const { userId } = who;
    await this.activation.assertAllowed(who);
    const device = await this.db.transaction(async (tx) => {
      const found = await repo.findDeviceByActivationCode(tx, normalizeActivationCode(code));
      if (!found) return null;
      if (!found.isValid) throw forbidden(DEVICE_MESSAGES.inactive);
      const assigned = await repo.assignUser(tx, found.id, userId);
      if (await repo.isPending(tx, found.id, userId)) {
        // The name typed is theirs alone, kept for when an owner lets them in.
        if (assigned && deviceName !== undefined && deviceName !== found.deviceName) {
          await repo.setNickname(tx, found.id, userId, deviceName);
        }
        return { pending: found.id, asked: assigned };
      }
      if (!assigned) throw conflict(DEVICE_MESSAGES.alreadyAdded);
      const added = await repo.findUserDevice(tx, userId, found.id);
      // The name typed: everyone's, from the owner; the adder's own, from anyone else.
      if (deviceName !== undefined && added) await this.applyName(tx, added, deviceName, undefined);
      return repo.findUserDevice(tx, userId, found.id);
    });
    if (!device) {
      await this.activation.failed(who);
      throw notFound(DEVICE_MESSAGES.unknownActivationCode);
    }
    // Kept, and shown to the device's owners to confirm; nothing of the device until then.
    if ('pending' in device) return { pending: { deviceId: device.pending, firstTime: device.asked } };
    this.events.emit('accessChanged', [userId]);
    return { device: presentUserDevice(device) };
  }

  /**
   * Renames the device for the caller (`personal`, a nickname) or, for its owner, for everyone
   * (`shared`; the owner's default). Returns the device as the caller now sees it, which name
   * changed and what it was (for the audit log).
   */
  async rename(
    userId: string,
    deviceId: string,
    newName: string,
    scope?: NameScope,
  ): Promise<{ device: UserDevice; scope: NameScope; previousName: string }> {
    const before = await this.ownDevice(userId, deviceId);
    const applied = await this.db.transaction((tx) => this.applyName(tx, before, newName, scope));
    return {
      device: await this.details(userId, deviceId),
      scope: applied,
      previousName: applied === 'shared' ? before.deviceName : (before.nickname ?? before.deviceName),
    };
  }

  /** Sets the shared name (owner) or the caller's nickname; a non-owner asking for `shared` gets 403. */
  private async applyName(
    tx: Tx,
    device: repo.DeviceWithCount,
    newName: string,
    scope: NameScope | undefined,
  ): Promise<NameScope> {
    const owner = device.circleRole === 'owner';
    const applied = scope ?? (owner ? 'shared' : 'personal');
    if (applied === 'shared') {
      if (!owner) throw forbidden(DEVICE_MESSAGES.ownerOnly);
      await repo.updateDevice(tx, device.id, { deviceName: newName });
      // The owner's nickname would hide the name they just gave everyone.
      await repo.setNickname(tx, device.id, device.userId, null);
    } else {
      await repo.setNickname(tx, device.id, device.userId, newName === device.deviceName ? null : newName);
    }
    return applied;
  }

  async details(userId: string, deviceId: string): Promise<UserDevice> {
    return presentUserDevice(await this.ownDevice(userId, deviceId));
  }

  // ---- helpers ----

  private async ownDevice(userId: string, deviceId: string): Promise<repo.DeviceWithCount> {
    const device = isUuid(deviceId) ? await repo.findUserDevice(this.db, userId, deviceId) : undefined;
    if (!device) throw notFound(DEVICE_MESSAGES.notFound);
    return device;
  }

  private async adminView(id: string): Promise<AdminDevice> {
    const device = await repo.findDeviceWithUsers(this.db, id);
    if (!device) throw notFound(DEVICE_MESSAGES.notFound);
    return presentAdminDevice(device);
  }

  /** The distinct ids, each an existing user with role user; 400 naming the first bad entry. */
  private async assignableUsers(tx: Tx, ids: string[]): Promise<string[]> {
    const distinct = [...new Set(ids)];
    const roles = new Map(
      (await repo.findUserRoles(tx, distinct.filter(isUuid))).map((u) => [u.id, u.role] as const),
    );
    const issues = distinct.flatMap((id) => {
      const role = roles.get(id);
      const path = `users.${ids.indexOf(id)}`;
      if (role === undefined) return [{ path, message: `${DEVICE_MESSAGES.unknownUser}: ${id}` }];
      if (role !== 'user') return [{ path, message: DEVICE_MESSAGES.notAUser }];
      return [];
    });
    if (issues.length > 0) throw badRequest(issues[0]!.message, issues);
    return distinct;
  }

  private async withFreshCodes<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.db.transaction(work);
      } catch (err) {
        if (!isUniqueViolation(err) || attempt >= CODE_ATTEMPTS) throw err;
      }
    }
  }
}
