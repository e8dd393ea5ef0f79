import { type CreateTeamBody, SKELETON_ROWS, TEAM_MESSAGES, type Team } from '@vitalwatch/shared';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { Button } from '@/components/button.tsx';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import { Cell, DataTable, row, SkeletonRows } from '@/components/data-table.tsx';
import { IconButton } from '@/components/icon-button.tsx';
import { BellIcon, PencilIcon, PlusIcon, TrashIcon, UsersIcon } from '@/components/icons.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { EmptyState, ErrorState } from '@/components/status-panels.tsx';
import { errorMessage } from '@/lib/api-error.ts';
import { asApiError } from '@/lib/store/api.ts';
import { queryView } from '@/lib/store/query-view.ts';
import {
  useCreateTeamMutation,
  useDeleteTeamMutation,
  useUpdateTeamMutation,
} from '../../api/change-team.ts';
import { useAdminDevicesQuery } from '../../api/get-devices.ts';
import { useAdminTeamsQuery } from '../../api/get-teams.ts';
import { useAdminUsersQuery } from '../../api/get-users.ts';
import { TeamFormModal } from './team-form-modal.tsx';
import { TeamWebhooksModal } from './team-webhooks-modal.tsx';

const COLUMNS = ['Team', 'Devices', 'Users', 'Actions'] as const;

/** A team's users by name, backups marked: "amy, bob (backup)". */
function membersText(team: Team, names: ReadonlyMap<string, string>): string {
  if (team.members.length === 0) return 'None';
  return team.members
    .map((m) => `${names.get(m.userId) ?? m.userId}${m.role === 'backup' ? ' (backup)' : ''}`)
    .join(', ');
}

/** Teams (/admin-dashboard/teams): care teams; each user of a team sees all of its devices. */
export function TeamsPage() {
  const query = useAdminTeamsQuery();
  const devices = useAdminDevicesQuery();
  const users = useAdminUsersQuery(true);
  const state = queryView(query, TEAM_MESSAGES.fetchFailed);
  const [create] = useCreateTeamMutation();
  const [update] = useUpdateTeamMutation();
  const [remove, removing] = useDeleteTeamMutation();
  const [editing, setEditing] = useState<Team | 'new' | null>(null);
  const [hooksOf, setHooksOf] = useState<Team | null>(null);
  const [asked, setAsked] = useState<Team | null>(null);
  const names = new Map((users.data ?? []).map((u) => [u._id, u.username]));

  const save = async (input: CreateTeamBody): Promise<boolean> => {
    try {
      if (editing === 'new') await create(input).unwrap();
      else if (editing) await update({ id: editing._id, team: input }).unwrap();
      toast.success(editing === 'new' ? TEAM_MESSAGES.created : TEAM_MESSAGES.updated);
      setEditing(null);
      return true;
    } catch (error) {
      toast.error(errorMessage(asApiError(error), TEAM_MESSAGES.saveFailed));
      return false;
    }
  };
  const confirmDelete = async () => {
    if (!asked) return;
    try {
      await remove(asked._id).unwrap();
      toast.success(TEAM_MESSAGES.deleted);
    } catch (error) {
      toast.error(errorMessage(asApiError(error), TEAM_MESSAGES.deleteFailed));
    } finally {
      setAsked(null);
    }
  };

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
      <title>Teams · VitalWatch</title>
      <PageHeader
        title="Teams"
        subtitle="Care teams: every user of a team sees every device of the team"
        actions={
          <Button onClick={() => setEditing('new')} disabled={!devices.data || !users.data}>
            <PlusIcon className="size-4" />
            New Team
          </Button>
        }
      />
      {state.status === 'error' && (
        <ErrorState title={TEAM_MESSAGES.fetchFailed} message={state.message} onRetry={query.refetch} />
      )}
      {state.status === 'loading' && (
        <DataTable caption="Care teams" columns={COLUMNS} busy>
          <SkeletonRows rows={SKELETON_ROWS} columns={COLUMNS.length} />
        </DataTable>
      )}
      {state.status === 'ready' && state.data.length === 0 && (
        <EmptyState
          icon={<UsersIcon className="size-10" />}
          title="No teams yet"
          hint="First step: New Team. Name it, e.g. “Ward B – nights”, then pick its devices and its carers: each carer of the team then sees all its devices on their board."
        />
      )}
      {state.status === 'ready' && state.data.length > 0 && (
        <DataTable caption="Care teams" columns={COLUMNS}>
          {state.data.map((team) => (
            <tr key={team._id} className={row}>
              <Cell className="font-medium text-slate-900 dark:text-white">{team.name}</Cell>
              <Cell label="Devices">{team.deviceIds.length}</Cell>
              <Cell label="Users">{membersText(team, names)}</Cell>
              <Cell label="Actions">
                <div className="flex gap-1">
                  <IconButton
                    label={`Edit ${team.name}`}
                    icon={<PencilIcon className="size-4" />}
                    onClick={() => setEditing(team)}
                  />
                  <IconButton
                    label={`Webhooks of ${team.name}`}
                    icon={<BellIcon className="size-4" />}
                    onClick={() => setHooksOf(team)}
                  />
                  <IconButton
                    label={`Delete ${team.name}`}
                    tone="danger"
                    icon={<TrashIcon className="size-4" />}
                    onClick={() => setAsked(team)}
                  />
                </div>
              </Cell>
            </tr>
          ))}
        </DataTable>
      )}
      {editing !== null && devices.data && users.data && (
        <TeamFormModal
          team={editing === 'new' ? undefined : editing}
          devices={devices.data}
          users={users.data}
          onClose={() => setEditing(null)}
          onSubmit={save}
        />
      )}
      {hooksOf && <TeamWebhooksModal team={hooksOf} onClose={() => setHooksOf(null)} />}
      <ConfirmDialog
        open={asked !== null}
        title="Delete team"
        message={`${asked?.name ?? ''} is deleted; its users lose the devices they saw only through it, at once.`}
        confirmLabel="Delete"
        busyLabel="Deleting..."
        busy={removing.isLoading}
        danger
        onConfirm={() => void confirmDelete()}
        onCancel={() => setAsked(null)}
      />
    </div>
  );
}
