import type { Role } from '@vitalwatch/shared';
import type { To } from 'react-router';
import { PATHS, SECTIONS } from '@/lib/paths.ts';

export interface NavItem {
  label: string;
  to: To;
  /** Exact match for the active state (area index pages). */
  end?: boolean;
}

const section = (id: string): To => ({ pathname: PATHS.home, hash: `#${id}` });

/** The header links of spec section 2, by who is signed in. */
export function navItemsFor(role: Role | null): NavItem[] {
  if (role === 'admin') {
    return [
      { label: 'Dashboard', to: PATHS.admin, end: true },
      { label: 'Users', to: PATHS.adminUsers },
      { label: 'Devices', to: PATHS.adminDevices },
      { label: 'Teams', to: PATHS.adminTeams },
    ];
  }
  if (role === 'user') {
    return [
      { label: 'Dashboard', to: PATHS.dashboard, end: true },
      { label: 'Board', to: PATHS.board },
      { label: 'Devices', to: PATHS.devices },
      { label: 'Alerts', to: PATHS.alerts },
    ];
  }
  return [
    { label: 'Home', to: PATHS.home, end: true },
    { label: 'Features', to: section(SECTIONS.features) },
    { label: 'About', to: section(SECTIONS.about) },
  ];
}
