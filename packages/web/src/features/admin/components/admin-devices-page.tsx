import {
  ADMIN_ERRORS,
  contracts,
  type DeviceSort,
  type FleetDevice,
  SKELETON_ROWS,
} from '@vitalwatch/shared';
import { useEffect, useMemo, useState } from 'react';
import { toast } from 'react-toastify';
import { Button } from '@/components/button.tsx';
import { DataTable, SkeletonRows } from '@/components/data-table.tsx';
import { PhoneIcon, PlusIcon } from '@/components/icons.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { SearchBox } from '@/components/search-box.tsx';
import { EmptyState, ErrorState } from '@/components/status-panels.tsx';
import { downloadContract } from '@/lib/call-contract.ts';
import { saveDownload } from '@/lib/save-download.ts';
import { asApiError } from '@/lib/store/api.ts';
import { queryView } from '@/lib/store/query-view.ts';
import { useLazyFleetDevicesQuery } from '../api/get-fleet-pages.ts';
import { useAdminUsersQuery } from '../api/get-users.ts';
import { useDeviceActions } from '../hooks/use-device-actions.ts';
import { useDeviceFilters } from '../hooks/use-device-filters.ts';
import { SEARCH_DEBOUNCE_MS, useDebounced, useMatchCount, usePagedList } from '../hooks/use-paged-list.ts';
import { type DeviceModal, DeviceModals } from './devices/device-modals.tsx';
import { DEVICE_COLUMNS, DeviceRow } from './devices/devices-table.tsx';
import { FirstRunSteps } from './devices/first-run-steps.tsx';
import { FleetFilters } from './devices/fleet-filters.tsx';
import { Pager } from './pager.tsx';

/** Usernames of the page's assigned users by id (the page carries them; no list of every user). */
const namesOf = (devices: readonly FleetDevice[]) =>
  new Map(devices.flatMap((d) => d.users.map((id, i): [string, string] => [id, d.userNames[i] ?? id])));

/** Admin → Devices → Print labels: a PDF sheet, a QR code per device that opens its claim link. */
async function printLabels(): Promise<void> {
  try {
    saveDownload(await downloadContract(contracts.adminDevice.labels, {}));
  } catch {
    toast.error(ADMIN_ERRORS.labelsFailed);
  }
}

/**
 * Device Management (/admin-dashboard/devices): the fleet a page of 50 at a time, searched on the
 * server as the admin types, filtered and sorted from the URL query, with its modals.
 */
export function AdminDevicesPage() {
  const { filters, search, set } = useDeviceFilters();
  const [typed, setTyped] = useState(search);
  const q = useDebounced(typed.trim(), SEARCH_DEBOUNCE_MS);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a settled search is written to the URL.
  useEffect(() => {
    if (q !== search) set({ q });
  }, [q]);
  const [trigger, result] = useLazyFleetDevicesQuery();
  const key = JSON.stringify({ ...filters, q });
  const paging = usePagedList(trigger, key, (after) => ({ ...filters, q, after }));
  const [modal, setModal] = useState<DeviceModal>(null);
  const actions = useDeviceActions();
  // Only role user (who can be given a device), and only when a form that assigns them is open.
  const usersQuery = useAdminUsersQuery(true, { skip: modal?.kind !== 'add' && modal?.kind !== 'edit' });
  const users = queryView(usersQuery, ADMIN_ERRORS.usersFetchFailed);
  const page = result.data;
  const total = useMatchCount(key, page?.total);
  const list = page?.devices ?? [];
  const names = useMemo(() => namesOf(list), [list]);
  const searching = q !== '' || Object.entries(filters).some(([k, v]) => k !== 'sort' && k !== 'dir' && v);
  const addButton = (
    <div className="flex flex-wrap gap-2">
      <Button variant="secondary" onClick={() => void printLabels()}>
        Print labels
      </Button>
      <Button onClick={() => setModal({ kind: 'add' })}>
        <PlusIcon className="size-4" />
        Add Device
      </Button>
    </div>
  );

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
      <title>Device Management · VitalWatch</title>
      <PageHeader
        title="Device Management"
        subtitle="Register devices, assign them to users and manage their codes"
        actions={addButton}
      />
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <SearchBox
          label="Search devices"
          placeholder="Search devices by name or activation code..."
          value={typed}
          onChange={setTyped}
        />
        {total !== undefined && (
          <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
            {`${total} devices found`}
          </p>
        )}
      </div>
      <FleetFilters
        value={filters}
        onChange={(change) => set(change as Record<string, DeviceSort | undefined>)}
      />
      {result.isError && !result.isFetching && (
        <ErrorState
          title={ADMIN_ERRORS.devicesFetchFailed}
          message={asApiError(result.error).message}
          onRetry={paging.reload}
        />
      )}
      {!page && !result.isError && (
        <>
          <p role="status" className="sr-only">
            Loading devices
          </p>
          <DataTable caption="Devices" columns={DEVICE_COLUMNS} busy>
            <SkeletonRows rows={SKELETON_ROWS} columns={DEVICE_COLUMNS.length} />
          </DataTable>
        </>
      )}
      {page && list.length === 0 && (
        <EmptyState
          icon={<PhoneIcon className="size-10" />}
          title="No devices found"
          hint={searching ? 'Try adjusting your search query' : 'Get started by adding a new device'}
          action={searching ? undefined : addButton}
        />
      )}
      {page && total === 0 && !searching && <FirstRunSteps />}
      {list.length > 0 && (
        <DataTable caption="Devices" columns={DEVICE_COLUMNS} busy={result.isFetching}>
          {list.map((device) => (
            <DeviceRow
              key={device._id}
              device={device}
              names={names}
              toggling={actions.toggling.has(device._id)}
              onToggle={actions.toggle}
              onAction={(kind, d) => setModal({ kind, id: d._id })}
            />
          ))}
        </DataTable>
      )}
      <Pager
        label="devices"
        pageNumber={paging.pageNumber}
        hasNext={Boolean(page?.nextCursor)}
        busy={result.isFetching}
        onPrevious={paging.previous}
        onNext={() => page?.nextCursor && paging.next(page.nextCursor)}
      />
      <DeviceModals
        modal={modal}
        devices={list}
        users={users}
        names={names}
        onRetryUsers={usersQuery.refetch}
        actions={actions}
        onClose={() => setModal(null)}
      />
    </div>
  );
}
