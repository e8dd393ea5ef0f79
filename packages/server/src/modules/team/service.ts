import {
  type CreateTeamBody,
  type FieldIssue,
  TEAM_MESSAGES,
  type Team,
  type TeamMember,
  type UpdateTeamBody,
} from '@vitalwatch/shared';
import type { Db, Tx } from '../../db/index.ts';
import { isUniqueViolation } from '../../db/sql-state.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import type { EventBus } from '../../lib/events.ts';
import { isUuid } from '../../lib/ids.ts';
import * as repo from './repository.ts';

/** What one change of a team did, for the audit log. */
export interface TeamChange {
  team: Team;
  previousName: string;
  devices: { added: string[]; removed: string[] };
  members: { added: string[]; removed: string[]; roleChanged: string[] };
}

const present = (t: repo.TeamWithMembers): Team => ({
  _id: t.id,
  name: t.name,
  deviceIds: t.deviceIds,
  members: t.members,
  createdAt: t.createdAt.toISOString(),
});

const nameTaken = () =>
  conflict(TEAM_MESSAGES.nameTaken, [{ path: 'name', message: TEAM_MESSAGES.nameTaken }]);

/**
 * Everyone whose board a committed change of one team changes: every member, before and after,
 * when its devices or name changed; else those who joined or left (a new contact role changes
 * whom alerts reach, not what anyone sees).
 */
function affectedBy({ team, previousName, devices, members }: TeamChange): string[] {
  if (devices.added.length + devices.removed.length === 0 && previousName === team.name) {
    return [...members.added, ...members.removed];
  }
  return [...new Set([...team.members.map((m) => m.userId), ...members.removed])];
}

/**
 * Care teams (admin only). Membership takes effect in the access layer (access/audience.ts), read
 * on every request and every event, so a change holds from the next reading, alert or request on:
 * a user who leaves a team gets nothing more of its devices on sockets already open. Every change
 * is told to its members (`accessChanged`): their screens fetch their devices again, and their
 * cached boards are dropped, at once.
 */
export class TeamService {
  private readonly db: Db;
  private readonly events: EventBus;

  constructor(db: Db, events: EventBus) {
    this.db = db;
    this.events = events;
  }

  private told(change: TeamChange): TeamChange {
    const userIds = affectedBy(change);
    if (userIds.length > 0) this.events.emit('accessChanged', userIds);
    return change;
  }

  async list(): Promise<Team[]> {
    return (await repo.listTeams(this.db)).map(present);
  }

  async create(body: CreateTeamBody): Promise<TeamChange> {
    const change = await this.write(async (tx) => {
      const deviceIds = await this.checkedDevices(tx, body.deviceIds);
      const members = await this.checkedMembers(tx, body.members);
      const row = await repo.insertTeam(tx, body.name);
      return {
        team: present((await this.applyLists(tx, row.id, deviceIds, members)).team),
        previousName: row.name,
        devices: { added: deviceIds, removed: [] },
        members: { added: members.map((m) => m.userId), removed: [], roleChanged: [] },
      };
    });
    return this.told(change);
  }

  async update(id: string, body: UpdateTeamBody): Promise<TeamChange> {
    const change = await this.write(async (tx) => {
      const row = isUuid(id) ? await repo.lockTeam(tx, id) : undefined;
      if (!row) throw notFound(TEAM_MESSAGES.notFound);
      const deviceIds = body.deviceIds && (await this.checkedDevices(tx, body.deviceIds));
      const members = body.members && (await this.checkedMembers(tx, body.members));
      if (body.name !== undefined && body.name !== row.name) await repo.renameTeam(tx, id, body.name);
      const { team, ...changes } = await this.applyLists(tx, id, deviceIds, members);
      return { team: present(team), previousName: row.name, ...changes };
    });
    return this.told(change);
  }

  /** Deletes the team; its members lose the devices they saw only through it at once. */
  async remove(id: string): Promise<Team> {
    const team = await this.db.transaction(async (tx) => {
      const found = isUuid(id) ? await repo.findTeam(tx, id) : undefined;
      if (!found || !(await repo.deleteTeam(tx, id))) throw notFound(TEAM_MESSAGES.notFound);
      return present(found);
    });
    if (team.members.length > 0)
      this.events.emit(
        'accessChanged',
        team.members.map((m) => m.userId),
      );
    return team;
  }

  private async applyLists(tx: Tx, id: string, deviceIds?: string[], members?: TeamMember[]) {
    const devices = deviceIds ? await repo.replaceTeamDevices(tx, id, deviceIds) : { added: [], removed: [] };
    const people = members
      ? await repo.replaceTeamUsers(tx, id, members)
      : { added: [], removed: [], roleChanged: [] };
    return { team: (await repo.findTeam(tx, id))!, devices, members: people };
  }

  private async write<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction(work);
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken();
      throw err;
    }
  }

  /** Distinct device ids, each an existing device; 400 naming the first that is not. */
  private async checkedDevices(tx: Tx, ids: string[]): Promise<string[]> {
    const distinct = [...new Set(ids)];
    const known = await repo.existingDeviceIds(tx, distinct.filter(isUuid));
    const issues: FieldIssue[] = distinct
      .filter((id) => !known.has(id))
      .map((id) => ({
        path: `deviceIds.${ids.indexOf(id)}`,
        message: `${TEAM_MESSAGES.unknownDevice}: ${id}`,
      }));
    if (issues.length > 0) throw badRequest(issues[0]!.message, issues);
    return distinct;
  }

  /** One membership per user (the last given role wins), each a user (not an admin); 400 otherwise. */
  private async checkedMembers(tx: Tx, members: TeamMember[]): Promise<TeamMember[]> {
    const byUser = new Map(members.map((m) => [m.userId, m] as const));
    const roles = await repo.userRoles(tx, [...byUser.keys()].filter(isUuid));
    const issues: FieldIssue[] = [...byUser.keys()].flatMap((id) => {
      const path = `members.${members.findIndex((m) => m.userId === id)}.userId`;
      const role = roles.get(id);
      if (role === undefined) return [{ path, message: `${TEAM_MESSAGES.unknownUser}: ${id}` }];
      return role === 'user' ? [] : [{ path, message: TEAM_MESSAGES.notAUser }];
    });
    if (issues.length > 0) throw badRequest(issues[0]!.message, issues);
    return [...byUser.values()];
  }
}
