import { ERRORS, type UserDevice } from '@vitalwatch/shared';
import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '@/lib/api-error.ts';
import { useRealtimeEvent } from '@/lib/socket.ts';
import { getDevices } from '../api/get-devices.ts';

export type DevicesState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; devices: UserDevice[] };

const newer = (a: string, b: string | null) => b === null || Date.parse(a) > Date.parse(b);

/** A device list with `device` in place of the one with its id, or added at the end. */
export function upsertDevice(devices: readonly UserDevice[], device: UserDevice): UserDevice[] {
  return devices.some((d) => d._id === device._id)
    ? devices.map((d) => (d._id === device._id ? device : d))
    : [...devices, device];
}

/**
 * The user's devices. Live readings move a device's last update forward (so online states follow
 * without a reload), and the list is fetched again after a lost connection comes back.
 */
export function useDevices() {
  const [state, setState] = useState<DevicesState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is how reload asks for a new fetch.
  useEffect(() => {
    let active = true;
    getDevices().then(
      (devices) => {
        if (active) setState({ status: 'ready', devices });
      },
      (error: unknown) => {
        if (active)
          setState({
            status: 'error',
            message: errorMessage(error, ERRORS.devicesFetchFailed, ERRORS.unexpected),
          });
      },
    );
    return () => {
      active = false;
    };
  }, [attempt]);

  const reload = useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((n) => n + 1);
  }, []);

  const upsert = useCallback((device: UserDevice) => {
    setState((s) => (s.status === 'ready' ? { ...s, devices: upsertDevice(s.devices, device) } : s));
  }, []);

  useRealtimeEvent('health', (record) => {
    setState((s) => {
      if (s.status !== 'ready') return s;
      const devices = s.devices.map((d) =>
        d._id === record.device && newer(record.createdAt, d.lastUpdate)
          ? { ...d, lastUpdate: record.createdAt }
          : d,
      );
      return { ...s, devices };
    });
  });
  useRealtimeEvent('connected', () => setAttempt((n) => n + 1));

  return { state, reload, upsert };
}
