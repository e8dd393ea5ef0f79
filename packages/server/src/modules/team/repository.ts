import type { TeamMember } from '@vitalwatch/shared';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/index.ts';
import { devices, teamDevices, teams, teamUsers, users } from '../../db/schema.ts';

export type TeamRow = typeof teams.$inferSelect;
/** A team with its devices' ids and its members, each in a stable order. */
export type TeamWithMembers = TeamRow & { deviceIds: string[]; members: TeamMember[] };

const deviceIdsOf = sql<string[]>`array(
  select td.device_id::text from ${teamDevices} td where td.team_id = ${teams.id} order by td.device_id)`;
const membersOf = sql<TeamMember[]>`coalesce((
  select json_agg(json_build_object('userId', tu.user_id::text, 'role', tu.contact_role) order by tu.user_id)
  from ${teamUsers} tu where tu.team_id = ${teams.id}), '[]'::json)`;

const withMembers = { team: teams, deviceIds: deviceIdsOf, members: membersOf };
const flatten = (r: { team: TeamRow; deviceIds: string[]; members: TeamMember[] }): TeamWithMembers => ({
  ...r.team,
  deviceIds: r.deviceIds,
  members: r.members,
});

export const listTeams = (tx: Tx): Promise<TeamWithMembers[]> =>
  tx
    .select(withMembers)
    .from(teams)
    .orderBy(asc(teams.name), teams.id)
    .then((rows) => rows.map(flatten));

export const findTeam = (tx: Tx, id: string): Promise<TeamWithMembers | undefined> =>
  tx
    .select(withMembers)
    .from(teams)
    .where(eq(teams.id, id))
    .limit(1)
    .then((rows) => rows.map(flatten)[0]);

/** Locks the team's row, so two changes of one team's lists apply one after the other. */
export const lockTeam = async (tx: Tx, id: string): Promise<TeamRow | undefined> =>
  (await tx.select().from(teams).where(eq(teams.id, id)).for('update'))[0];

export const insertTeam = async (tx: Tx, name: string): Promise<TeamRow> =>
  (await tx.insert(teams).values({ name }).returning())[0]!;

export const renameTeam = (tx: Tx, id: string, name: string) =>
  tx.update(teams).set({ name }).where(eq(teams.id, id));

export const deleteTeam = async (tx: Tx, id: string): Promise<boolean> =>
  (await tx.delete(teams).where(eq(teams.id, id)).returning({ id: teams.id })).length === 1;

/** Make the team's devices exactly `deviceIds`; returns who was added and removed. */
export async function replaceTeamDevices(tx: Tx, teamId: string, deviceIds: string[]) {
  const current = (
    await tx.select({ id: teamDevices.deviceId }).from(teamDevices).where(eq(teamDevices.teamId, teamId))
  ).map((r) => r.id);
  const removed = current.filter((id) => !deviceIds.includes(id));
  if (removed.length > 0) {
    await tx
      .delete(teamDevices)
      .where(and(eq(teamDevices.teamId, teamId), inArray(teamDevices.deviceId, removed)));
  }
  const added = deviceIds.filter((id) => !current.includes(id));
  if (added.length > 0) await tx.insert(teamDevices).values(added.map((deviceId) => ({ teamId, deviceId })));
  return { added, removed };
}

/** Make the team's members exactly `members` (with their roles); returns who was added, removed, or changed role. */
export async function replaceTeamUsers(tx: Tx, teamId: string, members: TeamMember[]) {
  const current = new Map(
    (
      await tx
        .select({ userId: teamUsers.userId, role: teamUsers.contactRole })
        .from(teamUsers)
        .where(eq(teamUsers.teamId, teamId))
    ).map((r) => [r.userId, r.role] as const),
  );
  const wanted = members.map((m) => m.userId);
  const removed = [...current.keys()].filter((id) => !wanted.includes(id));
  if (removed.length > 0) {
    await tx.delete(teamUsers).where(and(eq(teamUsers.teamId, teamId), inArray(teamUsers.userId, removed)));
  }
  const changed = members.filter((m) => current.get(m.userId) !== m.role);
  if (changed.length > 0) {
    await tx
      .insert(teamUsers)
      .values(changed.map((m) => ({ teamId, userId: m.userId, contactRole: m.role })))
      .onConflictDoUpdate({
        target: [teamUsers.teamId, teamUsers.userId],
        set: { contactRole: sql`excluded.contact_role` },
      });
  }
  return {
    added: changed.filter((m) => !current.has(m.userId)).map((m) => m.userId),
    removed,
    roleChanged: changed.filter((m) => current.has(m.userId)).map((m) => m.userId),
  };
}

/** Which of these ids are devices. */
export const existingDeviceIds = async (tx: Tx, ids: string[]): Promise<Set<string>> =>
  new Set(
    ids.length === 0
      ? []
      : (await tx.select({ id: devices.id }).from(devices).where(inArray(devices.id, ids))).map((r) => r.id),
  );

/** Roles of the given users; ids that are not users are absent. */
export const userRoles = async (tx: Tx, ids: string[]) =>
  new Map(
    ids.length === 0
      ? []
      : (await tx.select({ id: users.id, role: users.role }).from(users).where(inArray(users.id, ids))).map(
          (u) => [u.id, u.role] as const,
        ),
  );
