import { fleetDeviceQuery } from '@vitalwatch/shared';
import { useSearchParams } from 'react-router';
import type { DeviceFilters } from '../components/devices/fleet-filters.tsx';

const fields = fleetDeviceQuery.shape;

/** A field of the URL query, or its default when absent or not one of its values (a hand-edited link). */
const read = <T>(
  schema: { safeParse: (v: unknown) => { success: boolean; data?: T } },
  raw: string | null,
) => {
  const parsed = schema.safeParse(raw ?? undefined);
  return parsed.success ? parsed.data : undefined;
};

/**
 * Device Management's filters, order and search in the URL query (`?status=stale`,
 * `?assignment=unassigned`...), so the overview's counts link to them and a reload keeps them.
 */
export function useDeviceFilters() {
  const [params, setParams] = useSearchParams();
  const filters: DeviceFilters = {
    status: read(fields.status, params.get('status')),
    validity: read(fields.validity, params.get('validity')),
    assignment: read(fields.assignment, params.get('assignment')),
    battery: read(fields.battery, params.get('battery')),
    sort: read(fields.sort, params.get('sort')) ?? 'created',
    dir: read(fields.dir, params.get('dir')) ?? 'desc',
  };
  const set = (change: Record<string, string | undefined>) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const [key, value] of Object.entries(change)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        return next;
      },
      { replace: true },
    );
  return { filters, search: params.get('q') ?? '', set };
}
