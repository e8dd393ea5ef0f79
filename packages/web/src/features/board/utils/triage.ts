import {
  type BoardDevice,
  TRIAGE_GROUP_OF,
  TRIAGE_LEVELS,
  type TriageGroup,
  type TriageLevel,
  triageLevel,
} from '@vitalwatch/shared';

export interface TriagedDevice {
  device: BoardDevice;
  level: TriageLevel;
}

export const TRIAGE_GROUP_LABELS: Record<TriageGroup, string> = {
  attention: 'need attention',
  offline: 'offline or stale',
  battery: 'low battery or minor alert',
  normal: 'normal',
};

export const TRIAGE_LEVEL_LABELS: Record<TriageLevel, string> = {
  'unacknowledged-high': 'Urgent: not acknowledged',
  'acknowledged-high': 'Urgent: acknowledged',
  medium: 'Needs attention',
  offline: 'Offline or stale',
  'low-battery': 'Low battery or minor alert',
  normal: 'Normal',
};

const rank = (level: TriageLevel) => TRIAGE_LEVELS.indexOf(level);

/** The last triaged form of each device (the same object while device and level stay the same). */
const triagedOf = new WeakMap<BoardDevice, TriagedDevice>();

function triaged(device: BoardDevice, level: TriageLevel): TriagedDevice {
  const known = triagedOf.get(device);
  if (known?.level === level) return known;
  const item = { device, level };
  triagedOf.set(device, item);
  return item;
}

/**
 * Most urgent first; within a level by name then id, so a tile stays where it is while its level
 * does not change (new readings of the same level never move it). A device whose data and level
 * did not change keeps its item (the same object), so its memoised tile is not drawn again.
 */
export function triage(devices: readonly BoardDevice[], now: number): TriagedDevice[] {
  return devices
    .map((device) => triaged(device, triageLevel(device, now)))
    .sort(
      (a, b) =>
        rank(a.level) - rank(b.level) ||
        a.device.deviceName.localeCompare(b.device.deviceName) ||
        a.device._id.localeCompare(b.device._id),
    );
}

/** `devices` (in triage order) cut into runs of one level each, in the same order. */
export function runsByLevel(devices: readonly TriagedDevice[]): TriagedDevice[][] {
  const runs: TriagedDevice[][] = [];
  for (const item of devices) {
    const run = runs.at(-1);
    if (run && run[0]?.level === item.level) run.push(item);
    else runs.push([item]);
  }
  return runs;
}

export interface BoardFilters {
  teamId: string;
  group: TriageGroup | 'all';
  name: string;
}
export const NO_FILTERS: BoardFilters = { teamId: 'all', group: 'all', name: '' };

export function applyFilters(devices: readonly TriagedDevice[], f: BoardFilters): TriagedDevice[] {
  const needle = f.name.trim().toLowerCase();
  return devices.filter(
    ({ device, level }) =>
      (f.teamId === 'all' || device.teamIds.includes(f.teamId)) &&
      (f.group === 'all' || TRIAGE_GROUP_OF[level] === f.group) &&
      (!needle || device.deviceName.toLowerCase().includes(needle)),
  );
}

/** How many devices are in each group, for "3 need attention · 2 offline or stale · 25 normal". */
export function countByGroup(devices: readonly TriagedDevice[]): Record<TriageGroup, number> {
  const counts: Record<TriageGroup, number> = { attention: 0, offline: 0, battery: 0, normal: 0 };
  for (const { level } of devices) counts[TRIAGE_GROUP_OF[level]] += 1;
  return counts;
}
