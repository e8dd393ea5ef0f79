import {
  type CreateTeamBody,
  messageOnly,
  type Team,
  teamResponse,
  teamsResponse,
  type UpdateTeamBody,
} from '@vitalwatch/shared';
import type { z } from 'zod';
import { api, onSuccess } from '@/lib/store/api.ts';
import { removeById, upsertById } from '../utils/list-updates.ts';

/** GET /admin/teams: every care team with its devices and members, fetched afresh when a screen opens. */
export const teamsApi = api.injectEndpoints({
  endpoints: (build) => ({
    adminTeams: build.query<Team[], void>({
      query: () => ({ path: '/admin/teams', method: 'GET', auth: 'admin', schema: teamsResponse }),
      transformResponse: (response: z.infer<typeof teamsResponse>) => response.data.teams,
      keepUnusedDataFor: 0,
    }),
  }),
});

const teamSaved = (team: Team) =>
  teamsApi.util.updateQueryData('adminTeams', undefined, (teams) =>
    upsertById(teams, team).sort((a, b) => a.name.localeCompare(b.name)),
  );
const teamRemoved = (_: unknown, id: string) =>
  teamsApi.util.updateQueryData('adminTeams', undefined, (teams) => removeById(teams, id));

/** POST /admin/teams, PATCH and DELETE /admin/teams/:id. */
export const teamChangesApi = api.injectEndpoints({
  endpoints: (build) => ({
    createTeam: build.mutation<Team, CreateTeamBody>({
      query: (body) => ({ path: '/admin/teams', body, auth: 'admin', schema: teamResponse }),
      transformResponse: (response: z.infer<typeof teamResponse>) => response.data.team,
      onQueryStarted: onSuccess(teamSaved),
    }),
    updateTeam: build.mutation<Team, { id: string; team: UpdateTeamBody }>({
      query: ({ id, team }) => ({
        path: `/admin/teams/${encodeURIComponent(id)}`,
        method: 'PATCH',
        body: team,
        auth: 'admin',
        schema: teamResponse,
      }),
      transformResponse: (response: z.infer<typeof teamResponse>) => response.data.team,
      onQueryStarted: onSuccess(teamSaved),
    }),
    deleteTeam: build.mutation<void, string>({
      query: (id) => ({
        path: `/admin/teams/${encodeURIComponent(id)}`,
        method: 'DELETE',
        auth: 'admin',
        schema: messageOnly,
      }),
      transformResponse: () => undefined,
      onQueryStarted: onSuccess(teamRemoved),
    }),
  }),
});

export const { useAdminTeamsQuery } = teamsApi;
export const { useCreateTeamMutation, useUpdateTeamMutation, useDeleteTeamMutation } = teamChangesApi;
