import type { DeviceSort, DeviceStatusFilter, SortDirection } from '@vitalwatch/shared';
import { SelectField } from '@/components/select-field.tsx';

/** The device list's filters and order, as the URL query holds them (so the overview can link to them). */
export interface DeviceFilters {
  status?: DeviceStatusFilter;
  validity?: 'valid' | 'invalid';
  assignment?: 'assigned' | 'unassigned';
  battery?: 'low';
  sort: DeviceSort;
  dir: SortDirection;
}

const STATUS_OPTIONS: [DeviceStatusFilter | '', string][] = [
  ['', 'Any status'],
  ['online', 'Online'],
  ['offline', 'Offline'],
  ['stale', 'Offline over 1 hour'],
  ['never', 'Never reported'],
];
const SORT_OPTIONS: [`${DeviceSort}:${SortDirection}`, string][] = [
  ['created:desc', 'Newest first'],
  ['created:asc', 'Oldest first'],
  ['name:asc', 'Name A–Z'],
  ['name:desc', 'Name Z–A'],
  ['lastSeen:asc', 'Longest silent first'],
  ['lastSeen:desc', 'Last seen most recently'],
  ['battery:asc', 'Lowest battery first'],
  ['battery:desc', 'Highest battery first'],
];

interface FleetFiltersProps {
  value: DeviceFilters;
  onChange: (change: Partial<Record<keyof DeviceFilters, string | undefined>>) => void;
}

const or = (v: string) => (v === '' ? undefined : v);

/** Status, validity, assignment, battery and order of Device Management. */
export function FleetFilters({ value, onChange }: FleetFiltersProps) {
  return (
    <div className="mb-4 grid grid-cols-2 gap-3 lg:grid-cols-5">
      <SelectField
        label="Status"
        value={value.status ?? ''}
        onChange={(e) => onChange({ status: or(e.target.value) })}
      >
        {STATUS_OPTIONS.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Validity"
        value={value.validity ?? ''}
        onChange={(e) => onChange({ validity: or(e.target.value) })}
      >
        <option value="">Any validity</option>
        <option value="valid">Active</option>
        <option value="invalid">Inactive</option>
      </SelectField>
      <SelectField
        label="Assignment"
        value={value.assignment ?? ''}
        onChange={(e) => onChange({ assignment: or(e.target.value) })}
      >
        <option value="">Any assignment</option>
        <option value="assigned">Assigned</option>
        <option value="unassigned">Unassigned</option>
      </SelectField>
      <SelectField
        label="Battery"
        value={value.battery ?? ''}
        onChange={(e) => onChange({ battery: or(e.target.value) })}
      >
        <option value="">Any battery</option>
        <option value="low">Low battery</option>
      </SelectField>
      <SelectField
        label="Sort by"
        value={`${value.sort}:${value.dir}`}
        onChange={(e) => {
          const [sort, dir] = e.target.value.split(':');
          onChange({ sort, dir });
        }}
      >
        {SORT_OPTIONS.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </SelectField>
    </div>
  );
}
