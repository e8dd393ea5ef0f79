/** User-facing strings of the spec, copied exactly. */

export const VALIDATION = {
  fullNameRequired: 'Full Name is required',
  usernameRequired: 'Username is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Enter a valid email address',
  passwordRequired: 'Password is required',
  passwordWeak: 'Password must contain at least 8 characters, a number, uppercase & lowercase letter',
  confirmRequired: 'Confirm your password',
  passwordsMismatch: 'Passwords do not match',
  newPasswordSame: 'New password must be different from current password',
  passwordHint:
    'Password must be at least 8 characters and include uppercase, lowercase letters, and numbers',
  passwordChangeWeak:
    'New password must be at least 8 characters long and include uppercase, lowercase letters, and numbers',
  adminPasswordsMismatch: "Passwords don't match",
} as const;

export const ERRORS = {
  signupFailed: 'Signup failed',
  loginFailed: 'Login failed',
  fetchProfileFailed: 'Failed to fetch profile',
  updateNameFailed: 'Failed to update name',
  changePasswordFailed: 'Failed to change password',
  saveFcmTokenFailed: 'Failed to save FCM token',
  healthNotFound: 'Health data not found',
  healthFetchFailed: 'Failed to fetch health data',
  unexpected: 'An unexpected error occurred! Please try again.',
  alertsFetchFailed: 'Failed to fetch alerts',
  markReadFailed: 'Failed to mark alerts as read',
  acknowledgeFailed: 'Failed to acknowledge the alert',
  resolveFailed: 'Failed to mark the alert as handled',
  devicesFetchFailed: 'Failed to fetch devices',
  deviceUpdateFailed: 'Failed to update device',
  deviceAddFailed: 'Failed to add device',
  deviceDetailsFailed: 'Failed to fetch device details',
  noAuthToken: 'No authentication token found.',
  adminNoToken: 'Authentication token not available',
  notificationDenied: 'Notification permission denied! Please enable it in your browser settings.',
} as const;

/** The web app when the server cannot be reached at start: not signed out, trying again. */
export const CONNECTION_MESSAGES = {
  unreachableTitle: 'VitalWatch cannot be reached right now',
  unreachableHint: 'You are still signed in. Check your connection; the page tries again every few seconds.',
} as const;

/**
 * The user area when live data has stopped (the socket is down) and what that means for what is
 * on screen; `since`, `at` are clock times, `age` a precise age ("45 s").
 */
export const OUTAGE_MESSAGES = {
  notLive: (since: string) => `Not live: alerts paused since ${since} — reconnecting`,
  notLiveDetail:
    'New readings and alerts cannot reach this page until VitalWatch answers again. This page keeps trying.',
  readingAge: (at: string, age: string) =>
    `Not live: this reading is from ${at}, ${age} old. The values may have changed since.`,
  /** An action whose request never reached the server, or that the server failed to store. */
  notRecorded: 'Not recorded',
  unreachable: 'The server could not be reached.',
  serverError: (status: number) => `The server answered with an error (${status}).`,
  unreadable: "The server's answer could not be read.",
  retry: 'Retry',
} as const;

/** Why push notifications are off on this browser although permission is granted. */
export const PUSH_FAILURE_MESSAGES = {
  title: 'Alerts on this browser are off',
  worker: "The browser could not start VitalWatch's notification worker",
  publicKey: 'The VitalWatch server did not give this browser its push key',
  subscribe: "The browser's push service did not accept the subscription",
  save: "The VitalWatch server did not save this browser's subscription",
  unreachable: 'the server could not be reached',
} as const;

/** Admin fallbacks of spec section 8, shown when a failed admin call carries no server message. */
export const ADMIN_ERRORS = {
  labelsFailed: 'Could not make the labels. Please try again.',
  statsFetchFailed: 'Failed to fetch stats',
  userGrowthFetchFailed: 'Failed to fetch user growth data',
  systemStatusFetchFailed: 'Failed to fetch system status',
  usersFetchFailed: 'Failed to fetch users',
  auditFetchFailed: 'Failed to fetch the audit log',
  addUserFailed: 'Failed to add user',
  /** The user-management toast (the call's own fallback is 'Failed to edit user'). */
  updateUserFailed: 'Failed to update user',
  resetPasswordFailed: 'Failed to reset password',
  deleteUserFailed: 'Failed to delete user',
  devicesFetchFailed: 'Failed to fetch devices',
  addDeviceFailed: 'Failed to add device',
  changeValidityFailed: 'Failed to change device validity',
  regenerateActivationCodeFailed: 'Failed to regenerate activation code',
  /** Not in the spec, which names only the activation code; the API key needs its own words. */
  regenerateApiAuthCodeFailed: 'Failed to regenerate API auth code',
  editDeviceFailed: 'Failed to edit device',
  deleteDeviceFailed: 'Failed to delete device',
  shareLinksFetchFailed: 'Failed to fetch share links',
  revokeShareLinkFailed: 'Failed to revoke share link',
} as const;

export const TOASTS = {
  loggedOut: 'Logged out successfully',
  logoutFailed: 'Logout failed',
  profileUpdated: 'Profile updated successfully',
  profileUpdateFailed: 'Failed to update profile',
  passwordChanged: 'Password changed successfully',
  passwordChangeFailed: 'Failed to change password',
  deviceAdded: 'Device added successfully!',
  deviceAddFailed: 'Failed to add device. Please try again.',
  deviceRenamed: 'Device name updated successfully!',
  deviceRenameFailed: 'Failed to update device. Please try again.',
  deviceUpdated: 'Device updated successfully',
  deviceDeleted: 'Device deleted successfully',
  activationCodeCopied: 'Activation code copied!',
  apiAuthCodeCopied: 'API auth code copied!',
  userAdded: 'User added successfully',
  userUpdated: 'User updated successfully',
  passwordReset: 'Password reset successfully',
  userDeleted: 'User deleted successfully',
  tokenCopied: 'Token copied!',
  alarmSettingsSaved: 'Alarm settings saved',
  alarmSettingsFailed: 'Failed to save alarm settings',
  alarmSettingsFetchFailed: 'Failed to fetch alarm settings',
} as const;

/** Messages the server sends (not in the spec's catalogue, written for people). */
export const SERVER_MESSAGES = {
  userCreated: 'Account created successfully. Please log in.',
  loggedIn: 'Logged in successfully',
  loggedOut: 'Logged out successfully',
  profile: 'Profile fetched successfully',
  nameUpdated: 'Name updated successfully',
  passwordChanged: 'Password changed successfully',
  fcmTokenSaved: 'Push subscription saved',
  tokensRefreshed: 'Tokens refreshed',
  invalidCredentials: 'Invalid username/email or password',
  usernameTaken: 'Username is already taken',
  emailTaken: 'Email is already registered',
  wrongCurrentPassword: 'Current password is incorrect',
  unauthenticated: 'Authentication required',
  invalidToken: 'Invalid or expired token',
  forbidden: 'You do not have permission to do this',
  notFound: 'Not found',
  methodNotAllowed: 'This path does not take that method',
  duplicateHost: 'A request carries one Host header',
  validation: 'Validation failed',
  tooManyLogins: 'Too many failed login attempts. Please try again later.',
  rateLimited: 'Too many requests. Please slow down.',
  metricsTokenRequired: 'Metrics need the bearer token set in METRICS_TOKEN',
  ingestBusy: 'The server is storing other readings; send these again shortly',
  /** Over the per-user limit of exports, FHIR searches and histories running at once (429). */
  heavyReadsPerUser:
    'You already have several exports or history requests running; try again when one has finished',
  /** Every slot for exports and histories stayed taken while the request waited (503). */
  heavyReadsBusy: 'The server is busy with other exports; try again shortly',
  payloadTooLarge: 'Request body is too large',
  /**
   * The database could not take the request in time (every connection busy, a statement over its
   * limit, a lost connection): 503 with Retry-After; nothing of the request was stored.
   */
  databaseBusy: 'The server is busy and did not store or read this; try again shortly',
  internal: 'Internal server error',
  invalidRefresh: 'Invalid or expired refresh token',
  alertEmailsEnabled: 'Alert emails turned on',
  quietHoursSaved: 'Quiet hours saved',
  quietHoursOff: 'Quiet hours turned off',
  alertEmailsDisabled: 'Alert emails turned off',
  pushPublicKey: 'Push public key',
  pushNotConfigured: 'Push notifications are not configured on this server',
  pushBrowsers: 'Connected browsers fetched',
  pushBrowserRemoved: 'Browser disconnected',
  pushReceiptRecorded: 'Receipt recorded',
  pushEndpointCheckFailed: "Could not check this browser's push service right now; try again shortly",
} as const;

/**
 * Why a push subscription is refused, as the issue of `fcmToken.endpoint`: the server sends alerts
 * only to public push services, never to an address inside its own network.
 */
export const PUSH_ENDPOINT_ISSUES = {
  notHttps: 'Push endpoint must be an https:// URL',
  credentials: 'Push endpoint must not contain a user name or password',
  port: 'Push endpoint must use the standard https port',
  ipAddress: 'Push endpoint must name its push service by host name, not by IP address',
  localHost: 'Push endpoint must be on a public host',
  notPushService: 'Push endpoint is not on a push service this server accepts',
  notFound: 'Push endpoint host was not found',
  privateAddress: 'Push endpoint host resolves to a private or local network address',
} as const;
export type PushEndpointIssue = keyof typeof PUSH_ENDPOINT_ISSUES;
