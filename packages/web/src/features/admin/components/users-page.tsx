import { ADMIN_ERRORS, SKELETON_ROWS } from '@vitalwatch/shared';
import { useState } from 'react';
import { Button } from '@/components/button.tsx';
import { DataTable, SkeletonRows } from '@/components/data-table.tsx';
import { PlusIcon, UsersIcon } from '@/components/icons.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { SearchBox } from '@/components/search-box.tsx';
import { EmptyState, ErrorState } from '@/components/status-panels.tsx';
import { selectCurrentUser } from '@/lib/store/auth-slice.ts';
import { useAppSelector } from '@/lib/store/hooks.ts';
import { queryView } from '@/lib/store/query-view.ts';
import { useAdminUsersQuery } from '../api/get-users.ts';
import { useUserActions } from '../hooks/use-user-actions.ts';
import { filterUsers } from '../utils/filter-users.ts';
import { type UserModal, UserModals } from './users/user-modals.tsx';
import { USER_COLUMNS, UserRow } from './users/users-table.tsx';

/** User Management (/admin-dashboard/users): search, the user table and its four modals. */
export function UsersPage() {
  const users = useAdminUsersQuery(false);
  const state = queryView(users, ADMIN_ERRORS.usersFetchFailed);
  const me = useAppSelector(selectCurrentUser);
  const [query, setQuery] = useState('');
  const [modal, setModal] = useState<UserModal>(null);
  const actions = useUserActions(() => setModal(null));
  const openAdd = () => setModal({ kind: 'add' });
  const addButton = (
    <Button onClick={openAdd}>
      <PlusIcon className="size-4" />
      Add User
    </Button>
  );
  const visible = state.status === 'ready' ? filterUsers(state.data, query) : [];

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
      <title>User Management · VitalWatch</title>
      <PageHeader
        title="User Management"
        subtitle="Manage all system users and their permissions"
        actions={addButton}
      />
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <SearchBox
          label="Search users"
          placeholder="Search users by name, email or role..."
          value={query}
          onChange={setQuery}
        />
        {state.status === 'ready' && (
          <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
            {`${visible.length} users found`}
          </p>
        )}
      </div>
      {state.status === 'error' && (
        <ErrorState title={ADMIN_ERRORS.usersFetchFailed} message={state.message} onRetry={users.refetch} />
      )}
      {state.status === 'loading' && (
        <>
          <p role="status" className="sr-only">
            Loading users
          </p>
          <DataTable caption="Users" columns={USER_COLUMNS} busy>
            <SkeletonRows rows={SKELETON_ROWS} columns={USER_COLUMNS.length} />
          </DataTable>
        </>
      )}
      {state.status === 'ready' && visible.length === 0 && (
        <EmptyState
          icon={<UsersIcon className="size-10" />}
          title="No users found"
          hint={query.trim() ? 'Try adjusting your search query' : 'Get started by adding a new user'}
          action={addButton}
        />
      )}
      {visible.length > 0 && (
        <DataTable caption="Users" columns={USER_COLUMNS}>
          {visible.map((user) => (
            <UserRow
              key={user._id}
              user={user}
              isSelf={user._id === me?._id}
              onAction={(kind, u) => setModal({ kind, user: u })}
            />
          ))}
        </DataTable>
      )}
      <UserModals modal={modal} onClose={() => setModal(null)} actions={actions} />
    </div>
  );
}
