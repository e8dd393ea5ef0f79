import { ADMIN_ERRORS, SKELETON_ROWS } from '@vitalwatch/shared';
import { useState } from 'react';
import { Button } from '@/components/button.tsx';
import { DataTable, SkeletonRows } from '@/components/data-table.tsx';
import { PlusIcon, UsersIcon } from '@/components/icons.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { SearchBox } from '@/components/search-box.tsx';
import { EmptyState, ErrorState } from '@/components/status-panels.tsx';
import { asApiError } from '@/lib/store/api.ts';
import { selectCurrentUser } from '@/lib/store/auth-slice.ts';
import { useAppSelector } from '@/lib/store/hooks.ts';
import { useLazyFleetUsersQuery } from '../api/get-fleet-pages.ts';
import { SEARCH_DEBOUNCE_MS, useDebounced, useMatchCount, usePagedList } from '../hooks/use-paged-list.ts';
import { useUserActions } from '../hooks/use-user-actions.ts';
import { Pager } from './pager.tsx';
import { type UserModal, UserModals } from './users/user-modals.tsx';
import { USER_COLUMNS, UserRow } from './users/users-table.tsx';

/**
 * User Management (/admin-dashboard/users): users a page of 50 at a time, searched on the server
 * as the admin types ('{n} users found' counts the whole match), the user table and its modals.
 */
export function UsersPage() {
  const me = useAppSelector(selectCurrentUser);
  const [typed, setTyped] = useState('');
  const q = useDebounced(typed.trim(), SEARCH_DEBOUNCE_MS);
  const [trigger, result] = useLazyFleetUsersQuery();
  const paging = usePagedList(trigger, q, (after) => ({ q, after }));
  const [modal, setModal] = useState<UserModal>(null);
  const actions = useUserActions(() => setModal(null));
  const openAdd = () => setModal({ kind: 'add' });
  const addButton = (
    <Button onClick={openAdd}>
      <PlusIcon className="size-4" />
      Add User
    </Button>
  );
  const page = result.data;
  const total = useMatchCount(q, page?.total);
  const visible = page?.users ?? [];

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
          value={typed}
          onChange={setTyped}
        />
        {total !== undefined && (
          <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
            {`${total} users found`}
          </p>
        )}
      </div>
      {result.isError && !result.isFetching && (
        <ErrorState
          title={ADMIN_ERRORS.usersFetchFailed}
          message={asApiError(result.error).message}
          onRetry={paging.reload}
        />
      )}
      {!page && !result.isError && (
        <>
          <p role="status" className="sr-only">
            Loading users
          </p>
          <DataTable caption="Users" columns={USER_COLUMNS} busy>
            <SkeletonRows rows={SKELETON_ROWS} columns={USER_COLUMNS.length} />
          </DataTable>
        </>
      )}
      {page && visible.length === 0 && (
        <EmptyState
          icon={<UsersIcon className="size-10" />}
          title="No users found"
          hint={q ? 'Try adjusting your search query' : 'Get started by adding a new user'}
          action={addButton}
        />
      )}
      {visible.length > 0 && (
        <DataTable caption="Users" columns={USER_COLUMNS} busy={result.isFetching}>
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
      <Pager
        label="users"
        pageNumber={paging.pageNumber}
        hasNext={Boolean(page?.nextCursor)}
        busy={result.isFetching}
        onPrevious={paging.previous}
        onNext={() => page?.nextCursor && paging.next(page.nextCursor)}
      />
      <UserModals modal={modal} onClose={() => setModal(null)} actions={actions} />
    </div>
  );
}
