import { z } from 'zod';
import { envelope } from './common.ts';

/**
 * Care teams: an admin puts devices and users in a team; each of its users sees every device of the
 * team with the rights and alert routing of a direct assignment, as a primary or backup contact.
 */

export const TEAM_MESSAGES = {
  fetched: 'Teams fetched successfully',
  created: 'Team created successfully',
  updated: 'Team updated successfully',
  deleted: 'Team deleted successfully',
  notFound: 'Team not found',
  nameTaken: 'A team with this name already exists',
  unknownUser: 'User not found',
  notAUser: 'Only users (not admins) can be in a team',
  unknownDevice: 'Device not found',
  fetchFailed: 'Failed to fetch teams',
  saveFailed: 'Failed to save the team',
  deleteFailed: 'Failed to delete the team',
} as const;

export const TEAM_ROLES = ['primary', 'backup'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** Most devices and users one team holds (a large ward or agency round). */
export const TEAM_MAX_DEVICES = 2000;
export const TEAM_MAX_USERS = 500;

const teamNameField = z
  .string({ error: 'Team name is required' })
  .trim()
  .min(1, 'Team name is required')
  .max(80, 'Team name is too long (80 characters at most)');
const idField = z.string().min(1).max(64);

export const teamMember = z.object({
  userId: idField,
  /** Primary contacts hear of every alert; backup contacts when a high-priority alert escalates. */
  role: z.enum(TEAM_ROLES, { error: 'role must be primary or backup' }),
});
export type TeamMember = z.infer<typeof teamMember>;

const deviceIdsField = z
  .array(idField, { error: 'deviceIds must be a list of device ids' })
  .max(TEAM_MAX_DEVICES, `At most ${TEAM_MAX_DEVICES} devices per team`);
const membersField = z
  .array(teamMember, { error: 'members must be a list of {userId, role}' })
  .max(TEAM_MAX_USERS, `At most ${TEAM_MAX_USERS} users per team`);

export const team = z.object({
  _id: z.string(),
  name: z.string(),
  deviceIds: z.array(z.string()),
  members: z.array(teamMember),
  createdAt: z.string(),
});
export type Team = z.infer<typeof team>;

/** `POST /admin/teams`. */
export const createTeamBody = z.object({
  name: teamNameField,
  deviceIds: deviceIdsField.default([]),
  members: membersField.default([]),
});
export type CreateTeamBody = z.infer<typeof createTeamBody>;

/** `PATCH /admin/teams/:id`: what is omitted stays; `deviceIds` and `members` replace the whole list. */
export const updateTeamBody = z.object({
  name: teamNameField.optional(),
  deviceIds: deviceIdsField.optional(),
  members: membersField.optional(),
});
export type UpdateTeamBody = z.infer<typeof updateTeamBody>;

export const teamResponse = envelope(z.object({ team }));
export const teamsResponse = envelope(z.object({ teams: z.array(team) }));
