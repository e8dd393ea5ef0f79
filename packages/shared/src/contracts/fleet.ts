import {
  FLEET_MESSAGES,
  fleetDevicePageResponse,
  fleetDeviceQuery,
  fleetSummaryResponse,
  fleetUserPageResponse,
  fleetUserQuery,
} from '../schemas/fleet.ts';
import { defineContracts } from './contract.ts';

/** `/api/v1/admin/devices`, `/users`, `/fleet-summary`: the paged forms the admin screens use. */
export const fleetContracts = defineContracts('/admin', 'admin', {
  devices: {
    method: 'GET',
    path: '/devices',
    summary: 'One page of devices: searched, filtered, sorted',
    query: fleetDeviceQuery,
    response: fleetDevicePageResponse,
    message: FLEET_MESSAGES.devices,
  },
  users: {
    method: 'GET',
    path: '/users',
    summary: 'One page of users: searched, filtered, sorted',
    query: fleetUserQuery,
    response: fleetUserPageResponse,
    message: FLEET_MESSAGES.users,
  },
  summary: {
    method: 'GET',
    path: '/fleet-summary',
    summary: 'Devices that need attention, counted',
    response: fleetSummaryResponse,
    message: FLEET_MESSAGES.summary,
  },
});
