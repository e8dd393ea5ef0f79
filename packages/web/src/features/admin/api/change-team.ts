import { type CreateTeamBody, contracts, type Team, type UpdateTeamBody } from '@vitalwatch/shared';
import { api, onSuccess } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';
import { teamRemoved, teamSaved } from './get-teams.ts';

/** `contracts.team.create`, `.update` and `.remove`. */
export const teamChangesApi = api.injectEndpoints({
  endpoints: (build) => ({
    createTeam: build.mutation<Team, CreateTeamBody>({
      ...fromContract(
        contracts.team.create,
        (body: CreateTeamBody) => ({ body }),
        (response) => response.data.team,
      ),
      onQueryStarted: onSuccess(teamSaved),
    }),
    updateTeam: build.mutation<Team, { id: string; team: UpdateTeamBody }>({
      ...fromContract(
        contracts.team.update,
        ({ id, team }: { id: string; team: UpdateTeamBody }) => ({ params: { id }, body: team }),
        (response) => response.data.team,
      ),
      onQueryStarted: onSuccess(teamSaved),
    }),
    deleteTeam: build.mutation<void, string>({
      ...fromContract(
        contracts.team.remove,
        (id: string) => ({ params: { id } }),
        () => undefined,
      ),
      onQueryStarted: onSuccess(teamRemoved),
    }),
  }),
});

export const { useCreateTeamMutation, useUpdateTeamMutation, useDeleteTeamMutation } = teamChangesApi;
