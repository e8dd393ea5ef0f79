import { ERRORS, type UserDevice } from '@vitalwatch/shared';
import { useRealtimeEvent } from '@/lib/socket.ts';
import { useAppDispatch } from '@/lib/store/hooks.ts';
import { type QueryView, queryView } from '@/lib/store/query-view.ts';
import { useWhenConnected } from '@/lib/use-when-connected.ts';
import { userDevicesApi, useUserDevicesQuery } from '../api/get-devices.ts';

const newer = (a: string, b: string | null) => b === null || Date.parse(a) > Date.parse(b);

/**
 * The user's devices (`userDevices` in the store). Live readings move a device's last update
 * forward in the cache (so online states follow without a reload), and the list is fetched again
 * once a lost connection is back.
 */
export function useDevices(): { state: QueryView<UserDevice[]>; reload: () => void } {
  const dispatch = useAppDispatch();
  const query = useUserDevicesQuery();

  useRealtimeEvent('health', (record) => {
    dispatch(
      userDevicesApi.util.updateQueryData('userDevices', undefined, (devices) => {
        const device = devices.find((d) => d._id === record.device);
        if (device && newer(record.createdAt, device.lastUpdate)) device.lastUpdate = record.createdAt;
      }),
    );
  });
  useWhenConnected(query.isFetching, () => void query.refetch());

  return {
    state: queryView(query, ERRORS.devicesFetchFailed, ERRORS.unexpected),
    reload: () => void query.refetch(),
  };
}
