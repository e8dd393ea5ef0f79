import { ADMIN_ERRORS, SKELETON_ROWS } from '@vitalwatch/shared';
import { useMemo, useState } from 'react';
import { Button } from '@/components/button.tsx';
import { DataTable, SkeletonRows } from '@/components/data-table.tsx';
import { PhoneIcon, PlusIcon } from '@/components/icons.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { SearchBox } from '@/components/search-box.tsx';
import { EmptyState, ErrorState } from '@/components/status-panels.tsx';
import { queryView } from '@/lib/store/query-view.ts';
import { useAdminDevicesQuery } from '../api/get-devices.ts';
import { useAdminUsersQuery } from '../api/get-users.ts';
import { useDeviceActions } from '../hooks/use-device-actions.ts';
import { filterDevices } from '../utils/assigned-users.ts';
import { type DeviceModal, DeviceModals } from './devices/device-modals.tsx';
import { DEVICE_COLUMNS, DeviceRow } from './devices/devices-table.tsx';
import { FirstRunSteps } from './devices/first-run-steps.tsx';

/** Device Management (/admin-dashboard/devices): search, the device table and its modals. */
export function AdminDevicesPage() {
  const devicesQuery = useAdminDevicesQuery();
  // Only role user: who can be given a device.
  const usersQuery = useAdminUsersQuery(true);
  const devices = {
    state: queryView(devicesQuery, ADMIN_ERRORS.devicesFetchFailed),
    retry: devicesQuery.refetch,
  };
  const users = {
    state: queryView(usersQuery, ADMIN_ERRORS.usersFetchFailed),
    retry: usersQuery.refetch,
  };
  const actions = useDeviceActions();
  const [query, setQuery] = useState('');
  const [modal, setModal] = useState<DeviceModal>(null);
  const names = useMemo(
    () => new Map((usersQuery.data ?? []).map((u) => [u._id, u.username])),
    [usersQuery.data],
  );
  const list = devices.state.status === 'ready' ? devices.state.data : [];
  const visible = filterDevices(list, query, names);
  const addButton = (
    <Button onClick={() => setModal({ kind: 'add' })}>
      <PlusIcon className="size-4" />
      Add Device
    </Button>
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
          placeholder="Search devices by name or user..."
          value={query}
          onChange={setQuery}
        />
        {devices.state.status === 'ready' && (
          <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
            {`${visible.length} devices found`}
          </p>
        )}
      </div>
      {devices.state.status === 'error' && (
        <ErrorState
          title={ADMIN_ERRORS.devicesFetchFailed}
          message={devices.state.message}
          onRetry={devices.retry}
        />
      )}
      {devices.state.status === 'loading' && (
        <>
          <p role="status" className="sr-only">
            Loading devices
          </p>
          <DataTable caption="Devices" columns={DEVICE_COLUMNS} busy>
            <SkeletonRows rows={SKELETON_ROWS} columns={DEVICE_COLUMNS.length} />
          </DataTable>
        </>
      )}
      {devices.state.status === 'ready' && visible.length === 0 && (
        <EmptyState
          icon={<PhoneIcon className="size-10" />}
          title="No devices found"
          hint={query.trim() ? 'Try adjusting your search query' : 'Get started by adding a new device'}
          action={query.trim() ? undefined : addButton}
        />
      )}
      {devices.state.status === 'ready' && list.length === 0 && <FirstRunSteps />}
      {visible.length > 0 && (
        <DataTable caption="Devices" columns={DEVICE_COLUMNS}>
          {visible.map((device) => (
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
      <DeviceModals
        modal={modal}
        devices={list}
        users={users.state}
        names={names}
        onRetryUsers={users.retry}
        actions={actions}
        onClose={() => setModal(null)}
      />
    </div>
  );
}
