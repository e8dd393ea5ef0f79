import { z } from 'zod';
import { NORMAL_RANGES } from '../constants.ts';
import { adminUser } from './admin.ts';
import { envelope } from './common.ts';
import { adminDevice } from './device.ts';
import { roleSchema } from './user.ts';

/**
 * The admin's paged lists (issue 31): devices and users a page at a time, in a stable keyset
 * order, searched and filtered on the server. The spec's `all-devices` / `all-users` stay for
 * small installations; these are what the screens use.
 */
export const FLEET_MESSAGES = {
  devices: 'Devices fetched successfully',
  users: 'Users fetched successfully',
  summary: 'Fleet summary fetched successfully',
  badCursor: "Must be a page's nextCursor for the same sort",
} as const;

/** Rows per page unless the caller asks for fewer or more (at most FLEET_PAGE_MAX). */
export const FLEET_PAGE_SIZE = 50;
export const FLEET_PAGE_MAX = 100;
/** Search terms longer than this match nothing a person would type. */
export const FLEET_SEARCH_MAX = 100;

/** A device silent for longer than this is "offline for over an hour" (the overview's count). */
export const DEVICE_STALE_THRESHOLD_MS = 60 * 60_000;
/** Below the spec's normal battery range (at least 20 %) a battery is low. */
export const LOW_BATTERY_PERCENT = NORMAL_RANGES.battery.min;
/**
 * How long the server answers the overview's fleet counts from the last count: one pass over the
 * fleet costs tens of milliseconds at 30,000 devices, and an overview open on many admins' screens
 * asks again each time it refreshes. The counts say when they were taken ("as of …").
 */
export const FLEET_SUMMARY_TTL_MS = 30_000;

/**
 * How long the admin's list searches wait after the last keystroke before they ask the server: an
 * answer within 300 ms of the last keystroke (issue 31), the wait included, leaves the server
 * 150 ms; a search superseded meanwhile is cancelled.
 */
export const ADMIN_SEARCH_DEBOUNCE_MS = 150;

/**
 * online: a reading within DEVICE_ONLINE_THRESHOLD_MS (15 min); offline: readings once, none since;
 * stale: offline for over DEVICE_STALE_THRESHOLD_MS (a subset of offline); never: no reading yet.
 */
export const DEVICE_STATUSES = ['online', 'offline', 'stale', 'never'] as const;
export type DeviceStatusFilter = (typeof DEVICE_STATUSES)[number];
export const DEVICE_SORTS = ['name', 'created', 'lastSeen', 'battery'] as const;
export type DeviceSort = (typeof DEVICE_SORTS)[number];
export const USER_SORTS = ['name', 'created'] as const;
export type UserSort = (typeof USER_SORTS)[number];
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** An empty search box means no search. */
const searchField = z
  .string()
  .trim()
  .max(FLEET_SEARCH_MAX, `Search must be at most ${FLEET_SEARCH_MAX} characters`)
  .optional()
  .transform((s) => (s ? s : undefined));
const cursorField = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,400}$/, FLEET_MESSAGES.badCursor)
  .optional();
const limitField = z.coerce.number().int().min(1).max(FLEET_PAGE_MAX).default(FLEET_PAGE_SIZE);

/** `GET /api/v1/admin/devices`: one page of the fleet. */
export const fleetDeviceQuery = z.object({
  /** Part of the device's name (any case), the start of its activation code, or part of an assigned user's name, username or e-mail. */
  q: searchField,
  status: z.enum(DEVICE_STATUSES).optional(),
  validity: z.enum(['valid', 'invalid']).optional(),
  assignment: z.enum(['assigned', 'unassigned']).optional(),
  /** `low`: a last known battery below LOW_BATTERY_PERCENT. */
  battery: z.enum(['low']).optional(),
  /** Devices of this care team. */
  team: z.uuid().optional(),
  sort: z.enum(DEVICE_SORTS).default('created'),
  dir: z.enum(SORT_DIRECTIONS).default('desc'),
  /** A page's `nextCursor`: the page after it, in the same sort. */
  after: cursorField,
  limit: limitField,
});
export type FleetDeviceQuery = z.infer<typeof fleetDeviceQuery>;
/** The query as the screens build it (defaults may be left out). */
export type FleetDeviceParams = Omit<z.input<typeof fleetDeviceQuery>, 'limit'> & { limit?: number };

/** A device in the admin's list: the admin view plus what an operator acts on. */
export const fleetDevice = adminDevice.extend({
  /** Usernames of `users`, in the same order. */
  userNames: z.array(z.string()),
  /** The battery of the newest reading that reported one, percent; null: never reported. */
  battery: z.number().nullable(),
  /** Alerts of this device not yet resolved. */
  openAlerts: z.number().int(),
});
export type FleetDevice = z.infer<typeof fleetDevice>;

export const fleetDevicePage = z.object({
  devices: z.array(fleetDevice),
  /**
   * Devices matching the search and filters, all pages together: on the first page only (null on
   * the others, whose count would cost more than the page itself).
   */
  total: z.number().int().nullable(),
  /** Pass as `after` for the next page; null on the last one. */
  nextCursor: z.string().nullable(),
});
export type FleetDevicePage = z.infer<typeof fleetDevicePage>;
export const fleetDevicePageResponse = envelope(fleetDevicePage);

/** `GET /api/v1/admin/users`: one page of users. */
export const fleetUserQuery = z.object({
  /** Part of the full name, username or e-mail (any case); a role's name also matches that role. */
  q: searchField,
  role: roleSchema.optional(),
  /** Members of this care team. */
  team: z.uuid().optional(),
  sort: z.enum(USER_SORTS).default('created'),
  dir: z.enum(SORT_DIRECTIONS).default('asc'),
  after: cursorField,
  limit: limitField,
});
export type FleetUserQuery = z.infer<typeof fleetUserQuery>;
/** The query as the screens build it (defaults may be left out). */
export type FleetUserParams = Omit<z.input<typeof fleetUserQuery>, 'limit'> & { limit?: number };

export const fleetUserPage = z.object({
  users: z.array(adminUser),
  /** Users matching the search, all pages together ('{n} users found'): on the first page only. */
  total: z.number().int().nullable(),
  nextCursor: z.string().nullable(),
});
export type FleetUserPage = z.infer<typeof fleetUserPage>;
export const fleetUserPageResponse = envelope(fleetUserPage);

/** `GET /api/v1/admin/fleet-summary`: the counts an operator acts on, each a filter of the list. */
export const fleetSummary = z.object({
  /** Silent for over DEVICE_STALE_THRESHOLD_MS (status `stale`). */
  offlineOverHour: z.number().int(),
  /** Last known battery below LOW_BATTERY_PERCENT. */
  lowBattery: z.number().int(),
  /** No reading ever. */
  neverReported: z.number().int(),
  /** Assigned to nobody. */
  unassigned: z.number().int(),
  /** When these counts were taken: the server keeps them for FLEET_SUMMARY_TTL_MS. */
  asOf: z.iso.datetime(),
});
export type FleetSummary = z.infer<typeof fleetSummary>;
export const fleetSummaryResponse = envelope(fleetSummary);
