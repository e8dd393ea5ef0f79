import type { Role } from '@vitalwatch/shared';

/** Every route of spec section 2, in one place for links, redirects and the route table. */
export const PATHS = {
  home: '/',
  signup: '/signup',
  signin: '/signin',
  /** Account self-service from mailed links: no sign-in needed. */
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  verifyEmail: '/verify-email',
  demo: '/demo',
  dashboard: '/dashboard',
  devices: '/dashboard/devices',
  alerts: '/dashboard/alerts',
  board: '/dashboard/board',
  profile: '/dashboard/profile',
  admin: '/admin-dashboard',
  adminUsers: '/admin-dashboard/users',
  adminDevices: '/admin-dashboard/devices',
  adminAudit: '/admin-dashboard/audit',
  adminShareLinks: '/admin-dashboard/share-links',
  adminTeams: '/admin-dashboard/teams',
  /** A read-only share link (`/shared/<token>`), for someone without an account. */
  shared: '/shared',
  /** A care circle invitation link (`/invitation/<token>`), opened signed in or out. */
  invitation: '/invitation',
  /** Public help pages, for everyone signed in or out. */
  guide: '/guide',
  faq: '/faq',
  support: '/support',
  about: '/about',
  /** The server's API reference (Swagger UI), for developers: a full page load, not an app route. */
  apiReference: '/docs',
} as const;

/** The dashboard with this device chosen (`?device=<id>`): where an alert about it leads. */
export const dashboardFor = (deviceId: string): string =>
  `${PATHS.dashboard}?${new URLSearchParams({ device: deviceId })}`;

/** A device's Bluetooth gateway page: pair a wearable, see what it sends. */
export const wearableFor = (deviceId: string): string =>
  `${PATHS.devices}/${encodeURIComponent(deviceId)}/bluetooth`;

/** Where a signed-in person belongs: admins to the admin area, everyone else to the user dashboard. */
export const homeForRole = (role: Role): string => (role === 'admin' ? PATHS.admin : PATHS.dashboard);

/** Landing-page section anchors the header scrolls to. */
export const SECTIONS = { features: 'features', about: 'about', contact: 'contact' } as const;

/** My Devices with Add Device open and a device label's activation code filled in (`/claim/:code`). */
export const claimPath = (code: string): string => `${PATHS.devices}?${new URLSearchParams({ claim: code })}`;
