import { contracts, type Team } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';
import { removeById, upsertById } from '../utils/list-updates.ts';

/** `contracts.team.list`: every care team with its devices and members, fetched afresh when a screen opens. */
export const teamsApi = api.injectEndpoints({
  endpoints: (build) => ({
    adminTeams: build.query<Team[], void>({
      ...fromContract(
        contracts.team.list,
        () => ({}),
        (response) => response.data.teams,
      ),
      keepUnusedDataFor: 0,
    }),
  }),
});

/** A team the server has saved takes its place in the list, by name. */
export const teamSaved = (team: Team) =>
  teamsApi.util.updateQueryData('adminTeams', undefined, (teams) =>
    upsertById(teams, team).sort((a, b) => a.name.localeCompare(b.name)),
  );
/** A team the server has deleted leaves the list. */
export const teamRemoved = (_: unknown, id: string) =>
  teamsApi.util.updateQueryData('adminTeams', undefined, (teams) => removeById(teams, id));

export const { useAdminTeamsQuery } = teamsApi;
