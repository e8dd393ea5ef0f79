import { useId } from 'react';
import { CloseIcon } from '@/components/icons.tsx';
import { formatDay } from '@/lib/format-date.ts';
import { type DateRange, EMPTY_RANGE } from '../utils/date-range.ts';
import { DateRangePicker } from './date-range-picker.tsx';

export interface DeviceOption {
  _id: string;
  deviceName: string;
}

export interface AlertFilterValues {
  deviceId: string | null;
  range: DateRange;
}

interface AlertFiltersProps {
  devices: readonly DeviceOption[];
  value: AlertFilterValues;
  onChange: (value: AlertFilterValues) => void;
}

/** Device filter (All Devices or one) and the date-range picker. */
export function AlertFilters({ devices, value, onChange }: AlertFiltersProps) {
  const selectId = useId();
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
      <label htmlFor={selectId} className="sr-only">
        Device
      </label>
      <select
        id={selectId}
        value={value.deviceId ?? ''}
        onChange={(e) => onChange({ ...value, deviceId: e.target.value || null })}
        className="rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 shadow-sm dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
      >
        <option value="">All Devices</option>
        {devices.map((d) => (
          <option key={d._id} value={d._id}>
            {d.deviceName}
          </option>
        ))}
      </select>
      <DateRangePicker applied={value.range} onApply={(range) => onChange({ ...value, range })} />
    </div>
  );
}

function Chip({ label, onRemove }: { label: string; onRemove: () => void }) {
  return (
    <li className="inline-flex max-w-full items-center gap-1 rounded-full bg-teal-50 py-1 pr-1 pl-3 text-sm font-medium text-teal-900 dark:bg-teal-950 dark:text-teal-100">
      <span className="truncate">{label}</span>
      <button
        type="button"
        aria-label={`Remove filter ${label}`}
        onClick={onRemove}
        className="rounded-full p-0.5 hover:bg-teal-100 dark:hover:bg-teal-900"
      >
        <CloseIcon className="size-3.5" />
      </button>
    </li>
  );
}

/** The active filters as removable chips; nothing when no filter is on. */
export function FilterChips({ devices, value, onChange }: AlertFiltersProps) {
  const device = devices.find((d) => d._id === value.deviceId);
  const { from, to } = value.range;
  if (!device && !(from && to)) return null;
  return (
    <ul aria-label="Active filters" className="flex flex-wrap gap-2">
      {device && (
        <Chip
          label={`Device: ${device.deviceName}`}
          onRemove={() => onChange({ ...value, deviceId: null })}
        />
      )}
      {from && to && (
        <Chip
          label={`Dates: ${formatDay(from)} – ${formatDay(to)}`}
          onRemove={() => onChange({ ...value, range: EMPTY_RANGE })}
        />
      )}
    </ul>
  );
}
