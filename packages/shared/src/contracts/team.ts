import { idParam, messageOnly } from '../schemas/common.ts';
import {
  createTeamBody,
  TEAM_MESSAGES,
  teamResponse,
  teamsResponse,
  updateTeamBody,
} from '../schemas/team.ts';
import { defineContracts, RECORD_ERRORS } from './contract.ts';

/** `/api/v1/admin/teams`: care teams, admins only. */
export const teamContracts = defineContracts('/admin/teams', 'admin', {
  list: {
    method: 'GET',
    path: '',
    summary: 'Care teams with their devices and members',
    response: teamsResponse,
    message: TEAM_MESSAGES.fetched,
  },
  create: {
    method: 'POST',
    path: '',
    summary: 'Create a care team',
    body: createTeamBody,
    response: teamResponse,
    status: 201,
    message: TEAM_MESSAGES.created,
    errors: [409],
  },
  update: {
    method: 'PATCH',
    path: '/:id',
    summary: 'Rename a care team or change its devices or members',
    params: idParam,
    body: updateTeamBody,
    response: teamResponse,
    message: TEAM_MESSAGES.updated,
    errors: [404, 409],
  },
  remove: {
    method: 'DELETE',
    path: '/:id',
    summary: 'Delete a care team',
    params: idParam,
    response: messageOnly,
    message: TEAM_MESSAGES.deleted,
    errors: RECORD_ERRORS,
  },
});
