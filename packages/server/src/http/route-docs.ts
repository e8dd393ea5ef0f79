/**
 * What the API document cannot derive from a route's schemas and hooks: its summary, and the
 * error answers that come from its service rather than from its auth, input or rate limit (a
 * record it names that the caller may not see: 404; a clash with what is stored: 409; a refused
 * credential on a public route: 401; a dependency that cannot serve now: 503). Keyed by method
 * and Fastify path; every route has an entry (the API document test checks both ways).
 */
export interface RouteDoc {
  summary: string;
  errors?: readonly number[];
  /** The media type of a success that has no response schema (a file, a FHIR resource). */
  produces?: 'text/csv' | 'application/pdf' | 'application/fhir+json';
}

const record = [404] as const;

export const ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /healthz': { summary: 'Liveness: the process answers' },
  'GET /readyz': { summary: 'Readiness: database (and MQTT) reachable; 503 when not' },
  'GET /api/v1/openapi.json': { summary: 'This OpenAPI document' },

  'POST /api/v1/user/create': { summary: 'Sign up', errors: [409] },
  'POST /api/v1/user/login': { summary: 'Sign in with name and password', errors: [401] },
  'POST /api/v1/user/login/two-factor': {
    summary: 'Finish sign-in with a second factor',
    errors: [401, 409],
  },
  'POST /api/v1/user/two-factor/setup': { summary: 'Start setting up an authenticator app', errors: [409] },
  'POST /api/v1/user/two-factor/enable': { summary: 'Turn on two-factor sign-in', errors: [409] },
  'POST /api/v1/user/two-factor/disable': { summary: 'Turn off two-factor sign-in', errors: [403, 409] },
  'POST /api/v1/user/two-factor/recovery-codes': { summary: 'Replace the recovery codes', errors: [409] },
  'POST /api/v1/user/refresh': { summary: 'Trade a refresh token for a new token pair', errors: [401] },
  'GET /api/v1/user/profile': { summary: "The caller's profile" },
  'POST /api/v1/user/logout': { summary: 'Sign out (ends the session)' },
  'POST /api/v1/user/update-name': { summary: 'Change the display name' },
  'POST /api/v1/user/alert-emails': { summary: 'Turn alert e-mails on or off' },
  'POST /api/v1/user/temperature-unit': { summary: 'Choose °F or °C' },
  'POST /api/v1/user/quiet-hours': { summary: 'Set quiet hours for notifications' },
  'POST /api/v1/user/change-password': { summary: 'Change the password' },
  'POST /api/v1/user/save-fcm-token': { summary: 'Store a mobile push token' },

  'POST /api/v1/device/get-device': { summary: "The caller's devices" },
  'POST /api/v1/device/add-device': { summary: 'Add a device by its activation code', errors: [404, 409] },
  'POST /api/v1/device/update-device': { summary: 'Rename a device or change its contacts', errors: record },
  'POST /api/v1/device/device-details': { summary: 'One device', errors: record },
  'POST /api/v1/device/alarm-settings/:deviceId': { summary: "A device's alarm limits", errors: record },
  'POST /api/v1/device/update-alarm-settings/:deviceId': { summary: 'Change alarm limits', errors: record },

  'POST /api/v1/health/fetch/:deviceId': { summary: "A device's readings, newest first", errors: record },
  'POST /api/v1/health/history/:deviceId': { summary: "A device's history over a range", errors: record },

  'POST /api/v1/alert/latest/:count': { summary: 'The newest alerts' },
  'POST /api/v1/alert/all': { summary: 'Alerts, filtered and paged', errors: record },
  'POST /api/v1/alert/mark-read': { summary: 'Mark alerts as read' },
  'POST /api/v1/alert/acknowledge/:alertId': { summary: 'Acknowledge an alert', errors: record },
  'POST /api/v1/alert/acknowledge-by-token': {
    summary: 'Acknowledge an alert from a notification',
    errors: [401, 404],
  },
  'POST /api/v1/alert/timeline/:alertId': { summary: "An alert's timeline", errors: record },
  'POST /api/v1/alert/resolve/:alertId': { summary: 'Resolve an alert', errors: record },
  'POST /api/v1/alert/snooze': { summary: "Snooze a device's alerts", errors: record },
  'POST /api/v1/alert/unsnooze': { summary: 'End a snooze', errors: record },
  'POST /api/v1/alert/snoozes': { summary: "The caller's snoozes" },

  'POST /api/v1/ingest/health': { summary: 'Device: send one reading or a batch', errors: [503] },
  'POST /api/v1/ingest/alert': { summary: 'Device: send one alert event or a batch', errors: [503] },

  'GET /api/v1/export/readings/:deviceId': {
    summary: 'Readings as CSV',
    errors: record,
    produces: 'text/csv',
  },
  'GET /api/v1/export/report/:deviceId': {
    summary: 'A PDF report',
    errors: record,
    produces: 'application/pdf',
  },
  'GET /api/v1/export/alerts/:deviceId': { summary: 'Alerts as CSV', errors: record, produces: 'text/csv' },

  'GET /api/v1/admin/share-links': { summary: 'Every share link' },
  'POST /api/v1/admin/share-links/:id/revoke': { summary: 'Revoke any share link', errors: record },
  'POST /api/v1/share/create': { summary: 'Make a read-only share link', errors: record },
  'POST /api/v1/share/list': { summary: "A device's share links", errors: record },
  'POST /api/v1/share/revoke/:id': { summary: 'Revoke a share link', errors: record },
  'GET /api/v1/shared/:token': { summary: 'Share link: the device and its newest reading', errors: record },
  'POST /api/v1/shared/:token/history': { summary: "Share link: the device's history", errors: record },
  'GET /api/v1/shared/:token/report': {
    summary: "Share link: the device's PDF report",
    errors: record,
    produces: 'application/pdf',
  },

  'POST /api/v1/admin/stats': { summary: 'Platform figures' },
  'POST /api/v1/admin/user-growth': { summary: 'Sign-ups over time' },
  'POST /api/v1/admin/system-status': { summary: "The server's health" },
  'POST /api/v1/admin/all-users': { summary: 'All users' },
  'POST /api/v1/admin/add-user': { summary: 'Create a user', errors: [409] },
  'POST /api/v1/admin/edit-user/:id': { summary: 'Change a user', errors: [404, 409] },
  'POST /api/v1/admin/reset-password/:id': { summary: "Set a user's password", errors: record },
  'POST /api/v1/admin/delete-user/:id': { summary: 'Delete a user', errors: [404, 409] },
  'POST /api/v1/admin/all-devices': { summary: 'All devices' },
  'POST /api/v1/admin/add-device': { summary: 'Create a device (shows its API code once)' },
  'POST /api/v1/admin/update-device/:id': { summary: 'Change a device', errors: record },
  'POST /api/v1/admin/change-validity/:id': { summary: 'Enable or disable a device', errors: record },
  'POST /api/v1/admin/regenerate-code/:id': { summary: "Replace a device's API code", errors: record },
  'POST /api/v1/admin/delete-device/:id': { summary: 'Delete a device', errors: record },
  'POST /api/v1/admin/device-latest/:id': {
    summary: "A device's newest reading and where MQTT listens",
    errors: record,
  },
  'POST /api/v1/admin/test-reading/:id': {
    summary: 'Store one normal reading for a device, as the device would send it',
    errors: [404, 409],
  },
  'GET /api/v1/admin/audit': { summary: 'The audit log' },
  'GET /api/v1/admin/devices': { summary: 'One page of devices: searched, filtered, sorted' },
  'GET /api/v1/admin/users': { summary: 'One page of users: searched, filtered, sorted' },
  'GET /api/v1/admin/fleet-summary': { summary: 'Devices that need attention, counted' },

  'GET /api/v1/push/public-key': { summary: "The server's VAPID public key", errors: [503] },
  'POST /api/v1/push/subscriptions': { summary: "The caller's push browsers" },
  'POST /api/v1/push/unsubscribe': { summary: 'Stop push to a browser' },
  'POST /api/v1/push/subscriptions/:id/delete': { summary: 'Remove a push browser', errors: record },
  'DELETE /api/v1/push/subscriptions/:id': { summary: 'Remove a push browser', errors: record },

  'POST /api/v1/mqtt/auth': { summary: 'External broker (MQTT_URL): may this client connect?' },
  'POST /api/v1/mqtt/acl': { summary: 'External broker (MQTT_URL): may this client use this topic?' },

  'GET /fhir/R4/metadata': { summary: 'FHIR CapabilityStatement', produces: 'application/fhir+json' },
  'GET /fhir/R4/Device/:id': { summary: 'FHIR Device', errors: record, produces: 'application/fhir+json' },
  'GET /fhir/R4/Observation': {
    summary: 'FHIR vital-signs Observations of a device',
    errors: record,
    produces: 'application/fhir+json',
  },
  'GET /fhir/R4/Observation/:id': {
    summary: 'FHIR Observation (a search entry’s fullUrl)',
    errors: record,
    produces: 'application/fhir+json',
  },
  'GET /fhir/R4/Patient/:id': {
    summary: 'FHIR Patient: the wearer of a device',
    errors: record,
    produces: 'application/fhir+json',
  },
  'GET /fhir/R4/OperationDefinition/:id': {
    summary: 'FHIR OperationDefinition of $export',
    errors: record,
    produces: 'application/fhir+json',
  },
  'GET /fhir/R4/Device/:id/$export': {
    summary: "FHIR Bundle of a device's period",
    errors: record,
    produces: 'application/fhir+json',
  },
};
