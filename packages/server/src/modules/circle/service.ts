import { randomBytes } from 'node:crypto';
import {
  type CareCircle,
  CIRCLE_INVITATION_DAYS,
  CIRCLE_MESSAGES,
  type CircleRole,
  DEVICE_MESSAGES,
  type InvitationPreview,
  type InviteBody,
} from '@vitalwatch/shared';
import { visibleDevice } from '../../access/devices.ts';
import { hashToken } from '../../auth/tokens.ts';
import type { Db, Tx } from '../../db/index.ts';
import { conflict, forbidden, notFound } from '../../errors.ts';
import type { EventBus } from '../../lib/events.ts';
import { isUuid } from '../../lib/ids.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { DeviceService } from '../device/service.ts';
import { askAgainMail, confirmMail, invitationMail } from './mail.ts';
import * as repo from './repository.ts';

const DAY_MS = 86_400_000;

/** Where the links in the mails lead: the app's origin and its pages. */
export interface CircleLinks {
  invitation: (token: string) => string;
  devices: string;
}

/** What one change did, for the audit log. */
export interface CircleChange {
  circle: CareCircle;
  detail: Record<string, string>;
}

const presentInvitationState = (inv: repo.InvitationRow, now: Date): InvitationPreview['state'] => {
  if (inv.acceptedAt) return 'used';
  if (inv.revokedAt) return 'revoked';
  return inv.expiresAt <= now ? 'expired' : 'open';
};

const STATE_MESSAGES = {
  used: CIRCLE_MESSAGES.invitationUsed,
  revoked: CIRCLE_MESSAGES.invitationRevoked,
  expired: CIRCLE_MESSAGES.invitationExpired,
} as const;

/**
 * A device's care circle, run by its owners: invitations by e-mail (a single-use link valid
 * CIRCLE_INVITATION_DAYS; a new one to the same address replaces the open one), roles, removals,
 * leaving, and confirming people who used the activation code after the first. Every change
 * that takes a device from someone is told at once (`accessChanged`) to their open sockets.
 */
export class CircleService {
  private readonly db: Db;
  private readonly mailer: Mailer;
  private readonly links: CircleLinks;
  private readonly events: EventBus;
  private readonly devices: DeviceService;
  private readonly now: () => Date;

  constructor(deps: {
    db: Db;
    mailer: Mailer;
    links: CircleLinks;
    events: EventBus;
    devices: DeviceService;
    now?: () => Date;
  }) {
    this.db = deps.db;
    this.mailer = deps.mailer;
    this.links = deps.links;
    this.events = deps.events;
    this.devices = deps.devices;
    this.now = deps.now ?? (() => new Date());
  }

  /** The circle of a device the caller may see (else 404); open invitations only for owners. */
  async circle(userId: string, deviceId: string, tx: Tx = this.db): Promise<CareCircle> {
    const device = await visibleDevice(tx, userId, deviceId);
    if (!device) throw notFound(DEVICE_MESSAGES.notFound);
    const canManage = (await repo.findMember(tx, deviceId, userId))?.circleRole === 'owner';
    return this.present(tx, deviceId, canManage);
  }

  /** Any device's circle, for an admin (404 for none): who may be made owner, open invitations included. */
  async circleForAdmin(deviceId: string): Promise<CareCircle> {
    await this.devices.byId(deviceId);
    return this.present(this.db, deviceId, true);
  }

  private async present(tx: Tx, deviceId: string, canManage: boolean): Promise<CareCircle> {
    const members = await repo.listMembers(tx, deviceId);
    const invitations = canManage ? await repo.openInvitations(tx, deviceId, this.now()) : [];
    return {
      deviceId,
      canManage,
      members: members.map((m) => ({
        userId: m.userId,
        fullName: m.fullName,
        circleRole: m.circleRole,
        alerts: m.circleRole === 'viewer' || m.pendingSince ? 'none' : m.contactRole,
        since: m.since.toISOString(),
        pending: m.pendingSince !== null,
        browsersNotReceiving: m.browsersNotReceiving,
        workingChannel: m.workingChannel,
      })),
      invitations: invitations.map((i) => ({
        _id: i.id,
        email: i.email,
        circleRole: i.circleRole,
        createdAt: i.createdAt.toISOString(),
        expiresAt: i.expiresAt.toISOString(),
      })),
    };
  }

  /** Sends an invitation (owners only); refuses an address already in the circle (409). */
  async invite(ownerId: string, deviceId: string, body: InviteBody): Promise<CircleChange> {
    const email = body.email.toLowerCase();
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    const sent = await this.asOwner(ownerId, deviceId, async (tx, device) => {
      const existing = await repo.findUserByEmail(tx, email);
      if (existing && (await repo.findMember(tx, deviceId, existing.id))) {
        throw conflict(CIRCLE_MESSAGES.alreadyMember, [
          { path: 'email', message: CIRCLE_MESSAGES.alreadyMember },
        ]);
      }
      const replaced = await repo.replaceInvitation(
        tx,
        {
          deviceId,
          email,
          circleRole: body.circleRole,
          tokenHash: hashToken(token),
          invitedBy: ownerId,
          expiresAt: new Date(now.getTime() + CIRCLE_INVITATION_DAYS * DAY_MS),
        },
        now,
      );
      const inviter = (await repo.findUserName(tx, ownerId))!.fullName;
      return { deviceName: device.deviceName, inviter, replaced };
    });
    await this.mailer.send(
      invitationMail(email, {
        inviter: sent.inviter,
        deviceName: sent.deviceName,
        role: body.circleRole,
        url: this.links.invitation(token),
        days: CIRCLE_INVITATION_DAYS,
      }),
    );
    return {
      circle: await this.circle(ownerId, deviceId),
      detail: {
        email,
        role: body.circleRole,
        ...(sent.replaced > 0 ? { replaced: 'earlier invitation' } : {}),
      },
    };
  }

  async revoke(ownerId: string, deviceId: string, invitationId: string): Promise<CircleChange> {
    const revoked = await this.asOwner(ownerId, deviceId, async (tx) => {
      const row =
        isUuid(invitationId) && (await repo.revokeInvitation(tx, deviceId, invitationId, this.now()));
      if (!row) throw notFound(CIRCLE_MESSAGES.invitationNotFound);
      return row;
    });
    return { circle: await this.circle(ownerId, deviceId), detail: { email: revoked.email } };
  }

  /** Another role (and optionally another contact role); the last owner cannot step down. */
  async changeRole(ownerId: string, deviceId: string, change: RoleChange): Promise<CircleChange> {
    const before = await this.asOwner(ownerId, deviceId, (tx) => this.applyRole(tx, deviceId, change));
    this.events.emit('accessChanged', [change.userId]);
    return { circle: await this.circle(ownerId, deviceId), detail: roleDetail(before, change) };
  }

  /**
   * An admin sets anyone's role, whoever owns the device (making someone owner of a device an
   * admin assigned, say); the last owner is kept as for owners (409). Someone waiting for an
   * owner's confirmation is confirmed by it: an admin's word is enough.
   */
  async changeRoleAsAdmin(deviceId: string, change: RoleChange): Promise<CircleChange> {
    const before = await this.db.transaction(async (tx) => {
      if (!isUuid(deviceId) || !(await repo.lockDevice(tx, deviceId))) {
        throw notFound(DEVICE_MESSAGES.notFound);
      }
      return this.applyRole(tx, deviceId, change, { pendingSince: null });
    });
    this.events.emit('accessChanged', [change.userId]);
    return {
      circle: await this.circleForAdmin(deviceId),
      detail: { ...roleDetail(before, change), by: 'admin' },
    };
  }

  private async applyRole(tx: Tx, deviceId: string, change: RoleChange, also: { pendingSince?: null } = {}) {
    const member = await this.memberOf(tx, deviceId, change.userId);
    if (member.circleRole === 'owner' && change.circleRole !== 'owner') await this.keepAnOwner(tx, deviceId);
    await repo.updateMember(tx, deviceId, change.userId, {
      ...also,
      circleRole: change.circleRole,
      ...(change.contactRole ? { contactRole: change.contactRole } : {}),
    });
    return member;
  }

  /**
   * Removes a person (owners), or the caller leaves (anyone, their own id). The last owner may
   * leave only when alone. Their open sockets hear of it at once.
   */
  async remove(
    callerId: string,
    deviceId: string,
    userId: string,
  ): Promise<CircleChange & { left: boolean }> {
    const left = callerId === userId;
    const work = async (tx: Tx) => {
      const member = await this.memberOf(tx, deviceId, userId);
      const others = (await repo.listMembers(tx, deviceId)).length > 1;
      if (member.circleRole === 'owner' && others) await this.keepAnOwner(tx, deviceId);
      await repo.deleteMember(tx, deviceId, userId);
    };
    if (left) {
      await this.db.transaction(async (tx) => {
        if (!(await repo.lockDevice(tx, deviceId)) || !(await repo.findMember(tx, deviceId, userId))) {
          throw notFound(DEVICE_MESSAGES.notFound);
        }
        await work(tx);
      });
    } else {
      await this.asOwner(callerId, deviceId, work);
    }
    this.events.emit('accessChanged', [userId]);
    return {
      left,
      circle: left ? emptyCircle(deviceId) : await this.circle(callerId, deviceId),
      detail: { user: userId },
    };
  }

  /** Lets in someone who added the device by its code after the first (owners only). */
  async confirm(ownerId: string, deviceId: string, userId: string): Promise<CircleChange> {
    await this.asOwner(ownerId, deviceId, async (tx) => {
      const member = await this.memberOf(tx, deviceId, userId);
      if (member.pendingSince) await repo.updateMember(tx, deviceId, userId, { pendingSince: null });
    });
    this.events.emit('accessChanged', [userId]);
    return { circle: await this.circle(ownerId, deviceId), detail: { user: userId } };
  }

  /** A new activation code (owners only): the old one stops working at once. */
  async regenerateCode(ownerId: string, deviceId: string): Promise<string> {
    await this.asOwner(ownerId, deviceId, async () => undefined);
    return (await this.devices.regenerateCode(deviceId, 'activationCode')).activationCode;
  }

  /** What a link offers, whatever its state (404 only for a token that matches nothing). */
  async preview(token: string): Promise<InvitationPreview> {
    const inv = await repo.findInvitation(this.db, hashToken(token));
    if (!inv) throw notFound(CIRCLE_MESSAGES.invitationNotFound);
    const device = (await this.devices.byId(inv.deviceId)).deviceName;
    const inviter = (await repo.findUserName(this.db, inv.invitedBy))?.fullName ?? '';
    return {
      deviceName: device,
      invitedBy: inviter,
      email: inv.email,
      circleRole: inv.circleRole,
      expiresAt: inv.expiresAt.toISOString(),
      state: presentInvitationState(inv, this.now()),
    };
  }

  /**
   * The signed-in caller joins with the invitation's role, whatever address they signed up with
   * (the link is the proof). Used, expired and withdrawn links answer 409 saying which.
   */
  async accept(userId: string, token: string): Promise<{ deviceId: string; role: CircleRole }> {
    const now = this.now();
    const joined = await this.db.transaction(async (tx) => {
      const inv = await repo.findInvitation(tx, hashToken(token));
      if (!inv) throw notFound(CIRCLE_MESSAGES.invitationNotFound);
      const state = presentInvitationState(inv, now);
      if (state !== 'open') throw conflict(STATE_MESSAGES[state]);
      await repo.lockDevice(tx, inv.deviceId);
      if (await repo.findMember(tx, inv.deviceId, userId)) throw conflict(CIRCLE_MESSAGES.alreadyMember);
      if (!(await repo.useInvitation(tx, inv.id, userId, now)))
        throw conflict(CIRCLE_MESSAGES.invitationUsed);
      await repo.insertMember(tx, inv.deviceId, userId, inv.circleRole);
      return { deviceId: inv.deviceId, role: inv.circleRole };
    });
    this.events.emit('accessChanged', [userId]);
    return joined;
  }

  /** Mails the inviter that the link did not work for its recipient (expired or used links only). */
  async askAgain(token: string): Promise<{ deviceId: string }> {
    const inv = await repo.findInvitation(this.db, hashToken(token));
    if (!inv || presentInvitationState(inv, this.now()) === 'open') {
      throw notFound(CIRCLE_MESSAGES.invitationNotFound);
    }
    const inviter = await repo.findUserName(this.db, inv.invitedBy);
    const device = await this.devices.byId(inv.deviceId);
    if (inviter) {
      await this.mailer.send(
        askAgainMail(inviter.email, {
          email: inv.email,
          deviceName: device.deviceName,
          url: this.links.devices,
        }),
      );
    }
    return { deviceId: inv.deviceId };
  }

  /** Mails the device's confirmed owners that `userId` used its code and waits for them. */
  async askOwnersToConfirm(deviceId: string, userId: string): Promise<void> {
    const device = await this.devices.byId(deviceId);
    const who = (await repo.findUserName(this.db, userId))?.fullName ?? 'Someone';
    for (const owner of await repo.confirmedOwnerEmails(this.db, deviceId)) {
      await this.mailer.send(
        confirmMail(owner, { who, deviceName: device.deviceName, url: this.links.devices }),
      );
    }
  }

  /** Runs `work` with the device locked, when the caller is a confirmed owner; 404 when they may not see it, else 403. */
  private async asOwner<T>(
    ownerId: string,
    deviceId: string,
    work: (tx: Tx, device: NonNullable<Awaited<ReturnType<typeof repo.lockDevice>>>) => Promise<T>,
  ): Promise<T> {
    return this.db.transaction(async (tx) => {
      if (!(await visibleDevice(tx, ownerId, deviceId))) throw notFound(DEVICE_MESSAGES.notFound);
      const device = (await repo.lockDevice(tx, deviceId))!;
      if ((await repo.findMember(tx, deviceId, ownerId))?.circleRole !== 'owner') {
        throw forbidden(CIRCLE_MESSAGES.ownerOnly);
      }
      return work(tx, device);
    });
  }

  private async memberOf(tx: Tx, deviceId: string, userId: string) {
    const member = isUuid(userId) ? await repo.findMember(tx, deviceId, userId) : undefined;
    if (!member) throw notFound(CIRCLE_MESSAGES.notMember);
    return member;
  }

  /** Refuses (409) when the change would leave the device without a confirmed owner. */
  private async keepAnOwner(tx: Tx, deviceId: string): Promise<void> {
    if ((await repo.confirmedOwnerCount(tx, deviceId)) <= 1) throw conflict(CIRCLE_MESSAGES.lastOwner);
  }
}

/** A role change: the person, their new role, and optionally how alerts reach them. */
export interface RoleChange {
  userId: string;
  circleRole: CircleRole;
  contactRole?: 'primary' | 'backup';
}

const roleDetail = (before: { circleRole: CircleRole }, change: RoleChange): Record<string, string> => ({
  user: change.userId,
  from: before.circleRole,
  to: change.circleRole,
  ...(change.contactRole ? { alerts: change.contactRole } : {}),
});

const emptyCircle = (deviceId: string): CareCircle => ({
  deviceId,
  members: [],
  invitations: [],
  canManage: false,
});
