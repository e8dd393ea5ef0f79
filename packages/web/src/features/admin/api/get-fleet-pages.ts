import {
  type AdminDevice,
  type AdminUser,
  contracts,
  type FleetDevice,
  type FleetDevicePage,
  type FleetDeviceParams,
  type FleetSummary,
  type FleetUserPage,
  type FleetUserParams,
} from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';
import type { AppDispatch, RootState } from '@/lib/store/hooks.ts';
import { removeById, upsertById } from '../utils/list-updates.ts';

/** The set parameters (unset and empty ones left out, so the server's defaults apply). */
const setOnly = <P extends object>(params: P): P =>
  Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined && value !== '')) as P;

/**
 * The admin's paged lists (issue 31): `contracts.fleet.devices` and `.users` one page at a time, and
 * the overview's fleet counts (`.summary`). Pages are fetched with the lazy hooks, so a superseded request
 * (the admin typed on) is aborted rather than left to finish.
 */
export const fleetApi = api.injectEndpoints({
  endpoints: (build) => ({
    fleetDevices: build.query<FleetDevicePage, FleetDeviceParams>({
      ...fromContract(
        contracts.fleet.devices,
        (params: FleetDeviceParams) => ({ query: setOnly(params) }),
        (response) => response.data,
      ),
      keepUnusedDataFor: 0,
    }),
    fleetUsers: build.query<FleetUserPage, FleetUserParams>({
      ...fromContract(
        contracts.fleet.users,
        (params: FleetUserParams) => ({ query: setOnly(params) }),
        (response) => response.data,
      ),
      keepUnusedDataFor: 0,
    }),
    fleetSummary: build.query<FleetSummary, void>({
      ...fromContract(
        contracts.fleet.summary,
        () => ({}),
        (response) => response.data,
      ),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useLazyFleetDevicesQuery, useLazyFleetUsersQuery, useFleetSummaryQuery } = fleetApi;

/**
 * A device the server has saved takes its place in every cached page of Device Management (a new
 * one joins the page on screen); the fleet fields it does not carry keep their values. Usernames
 * of its users come from the page or, for a new assignment, from `names`.
 */
export const fleetDeviceSaved =
  (device: AdminDevice, names: ReadonlyMap<string, string> = new Map()) =>
  (dispatch: AppDispatch, getState: () => RootState) => {
    for (const args of fleetApi.util.selectCachedArgsForQuery(getState(), 'fleetDevices')) {
      dispatch(
        fleetApi.util.updateQueryData('fleetDevices', args, (page) => {
          const before = page.devices.find((d) => d._id === device._id);
          const known = new Map(page.devices.flatMap((d) => d.users.map((id, i) => [id, d.userNames[i]])));
          const saved: FleetDevice = {
            battery: null,
            openAlerts: 0,
            ...before,
            ...device,
            userNames: device.users.map((id) => known.get(id) ?? names.get(id) ?? id),
          };
          if (!before && page.total !== null) page.total += 1;
          page.devices = upsertById(page.devices, saved);
        }),
      );
    }
  };

/** A device the server has deleted leaves every cached page. */
export const fleetDeviceRemoved = (id: string) => (dispatch: AppDispatch, getState: () => RootState) => {
  for (const args of fleetApi.util.selectCachedArgsForQuery(getState(), 'fleetDevices')) {
    dispatch(
      fleetApi.util.updateQueryData('fleetDevices', args, (page) => {
        if (page.total !== null && page.devices.some((d) => d._id === id)) page.total -= 1;
        page.devices = removeById(page.devices, id);
      }),
    );
  }
};

/** A user the server has saved takes its place in every cached page of User Management. */
export const fleetUserSaved = (user: AdminUser) => (dispatch: AppDispatch, getState: () => RootState) => {
  for (const args of fleetApi.util.selectCachedArgsForQuery(getState(), 'fleetUsers')) {
    dispatch(
      fleetApi.util.updateQueryData('fleetUsers', args, (page) => {
        if (page.total !== null && !page.users.some((u) => u._id === user._id)) page.total += 1;
        page.users = upsertById(page.users, user);
      }),
    );
  }
};

/** A user the server has deleted leaves every cached page. */
export const fleetUserRemoved = (id: string) => (dispatch: AppDispatch, getState: () => RootState) => {
  for (const args of fleetApi.util.selectCachedArgsForQuery(getState(), 'fleetUsers')) {
    dispatch(
      fleetApi.util.updateQueryData('fleetUsers', args, (page) => {
        if (page.total !== null && page.users.some((u) => u._id === id)) page.total -= 1;
        page.users = removeById(page.users, id);
      }),
    );
  }
};
