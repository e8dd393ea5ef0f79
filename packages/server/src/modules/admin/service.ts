import {
  ADMIN_MESSAGES,
  type AddUserInput,
  type AdminStats,
  type AdminUser,
  type EditUserInput,
  type Role,
  UNREACHABLE_DEVICES_SHOWN,
  USER_GROWTH_DAYS,
  type UserGrowthEntry,
} from '@vitalwatch/shared';
import { hashPassword } from '../../auth/passwords.ts';
import { channelHealthSummary } from '../../channel-health/working-channel.ts';
import type { Db, Tx } from '../../db/index.ts';
import { isUniqueViolation, sqlState } from '../../db/sql-state.ts';
import { badRequest, DomainError, notFound } from '../../errors.ts';
import type { EventBus } from '../../lib/events.ts';
import { isUuid } from '../../lib/ids.ts';
import type { UserService } from '../user/service.ts';
import { presentAdminUser } from './presenter.ts';
import * as repo from './repository.ts';

const lastAdmin = () => new DomainError('lastAdmin', ADMIN_MESSAGES.lastAdmin);
const userNotFound = () => notFound(ADMIN_MESSAGES.userNotFound);

/** The admin's rules: platform figures and user management (roles are checked by the routes). */
export class AdminService {
  private readonly db: Db;
  private readonly users: UserService;
  /** Told `sessionsEnded` after a reset or deletion, so the user's open sockets close at once. */
  private readonly events: EventBus;

  constructor(db: Db, users: UserService, events: EventBus) {
    this.db = db;
    this.users = users;
    this.events = events;
  }

  async stats(): Promise<AdminStats> {
    const [totals, health] = await Promise.all([
      repo.platformStats(this.db),
      channelHealthSummary(this.db, UNREACHABLE_DEVICES_SHOWN),
    ]);
    return {
      ...totals,
      channelHealth: {
        contactsWithoutChannel: health.contacts,
        devicesWithoutChannel: health.device_count,
        devices: health.devices,
      },
    };
  }

  async userGrowth(timeZone = 'UTC'): Promise<UserGrowthEntry[]> {
    try {
      return await repo.usersPerDay(this.db, timeZone, USER_GROWTH_DAYS);
    } catch (err) {
      // A name the browser knows but this database's time-zone table does not.
      if (sqlState(err) === '22023') {
        throw badRequest(ADMIN_MESSAGES.unknownTimeZone, [
          { path: 'timeZone', message: ADMIN_MESSAGES.unknownTimeZone },
        ]);
      }
      throw err;
    }
  }

  async listUsers(onlyRoleUser: boolean): Promise<AdminUser[]> {
    const [rows, tokens, deviceCounts, recoveryCounts] = await Promise.all([
      repo.listUsers(this.db, onlyRoleUser ? 'user' : undefined),
      repo.subscriptionIdsByUser(this.db),
      repo.deviceCountsByUser(this.db),
      repo.recoveryCodeCountsByUser(this.db),
    ]);
    return rows.map((u) =>
      presentAdminUser(u, tokens.get(u.id) ?? [], deviceCounts.get(u.id) ?? 0, recoveryCounts.get(u.id) ?? 0),
    );
  }

  async addUser(input: AddUserInput): Promise<AdminUser> {
    const row = await this.users.createUser(input, true);
    return presentAdminUser(row, [], 0, 0);
  }

  /** The user as edited, and the role they had before (a role change is audited). */
  async editUser(id: string, input: EditUserInput): Promise<{ user: AdminUser; previousRole: Role }> {
    if (!isUuid(id)) throw userNotFound();
    try {
      let previousRole: Role = input.role;
      const row = await this.db.transaction(async (tx) => {
        const user = await this.users.byId(id, tx);
        if (!user) throw userNotFound();
        previousRole = user.role;
        if (user.role === 'admin' && input.role !== 'admin') await this.assertOtherAdmin(tx, id);
        // Devices are watched by users; an admin would get a device's alerts with no screen to see them.
        if (user.role !== 'admin' && input.role === 'admin' && (await repo.deviceCountOf(tx, id)) > 0) {
          throw new DomainError('adminHasDevices', ADMIN_MESSAGES.adminWithDevices);
        }
        await this.users.assertAvailable(tx, input.username, input.email, id);
        return this.users.editAccount(tx, id, input);
      });
      if (!row) throw userNotFound();
      if (previousRole !== input.role) this.users.roleChanged(id);
      return { user: await this.present(row), previousRole };
    } catch (err) {
      // Two edits racing for one name: the unique index decides.
      if (isUniqueViolation(err)) await this.users.assertAvailable(this.db, input.username, input.email, id);
      throw err;
    }
  }

  /**
   * New password; every session of that user ends (refresh tokens revoked, access tokens refused,
   * open sockets closed).
   */
  async resetPassword(id: string, newPassword: string): Promise<void> {
    if (!isUuid(id)) throw userNotFound();
    const passwordHash = await hashPassword(newPassword);
    await this.db.transaction(async (tx) => {
      if (!(await this.users.replacePassword(tx, id, passwordHash))) throw userNotFound();
    });
    this.events.emit('sessionsEnded', id);
  }

  /** Removes the user with their sessions, push subscriptions and device assignments; devices stay. */
  async deleteUser(callerId: string, id: string): Promise<void> {
    if (!isUuid(id)) throw userNotFound();
    if (id === callerId) throw new DomainError('selfDelete', ADMIN_MESSAGES.selfDelete);
    await this.db.transaction(async (tx) => {
      const user = await this.users.byId(id, tx);
      if (!user) throw userNotFound();
      if (user.role === 'admin') await this.assertOtherAdmin(tx, id);
      if (!(await repo.deleteUser(tx, id))) throw userNotFound();
    });
    this.events.emit('sessionsEnded', id);
  }

  private async assertOtherAdmin(tx: Tx, id: string): Promise<void> {
    const admins = await repo.lockAdmins(tx);
    if (!admins.some((adminId) => adminId !== id)) throw lastAdmin();
  }

  private async present(row: repo.AdminUserRow): Promise<AdminUser> {
    const [tokens, devices, recoveryCodesLeft] = await Promise.all([
      this.users.pushSubscriptionIds(row.id),
      repo.deviceCountOf(this.db, row.id),
      this.users.recoveryCodesLeft(row.id),
    ]);
    return presentAdminUser(row, tokens, devices, recoveryCodesLeft);
  }
}
