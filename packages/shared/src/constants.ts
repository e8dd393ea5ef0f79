/** Business constants of spec section 9 and ARCHITECTURE.md, shared by server and web. */

export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/**
 * A person's place in a device's circle. The owner (the first to add the device by activation
 * code) renames it for everyone and changes its alarm settings; a carer watches it and gives it a
 * name of their own; a viewer only watches. Admins keep every right on every device.
 */
export const CIRCLE_ROLES = ['owner', 'carer', 'viewer'] as const;
export type CircleRole = (typeof CIRCLE_ROLES)[number];
export const CIRCLE_ROLE_LABELS: Record<CircleRole, string> = {
  owner: 'Owner',
  carer: 'Carer',
  viewer: 'Viewer',
};

export const PASSWORD_MIN_LENGTH = 8;
/** The profile password-change button needs only this many characters (spec 5). */
export const PASSWORD_CHANGE_BUTTON_MIN_LENGTH = 6;

export const GUARD_SPINNER_MS = 50;
export const TOAST_AUTOCLOSE_AUTH_MS = 5000;
export const TOAST_AUTOCLOSE_APP_MS = 3000;
/**
 * How often the urgent alert sound repeats while a high-priority alert is unacknowledged:
 * IEC 60601-1-8 has a high-priority alarm signal repeat its burst (every 2.5 to 15 s) until
 * the alarm is acknowledged.
 */
export const URGENT_SOUND_REPEAT_MS = 10_000;
export const HEADER_TRANSLUCENT_SCROLL_PX = 10;
export const RELATIVE_TIME_REFRESH_MS = 60_000;

export const DEVICE_ONLINE_THRESHOLD_MS = 15 * 60_000;

/**
 * Default days kept (the server's RETENTION_DAYS, ROLLUP_RETENTION_DAYS, AUDIT_RETENTION_DAYS).
 * Raw readings for 90 days: at one reading a second that is about 9 MB a day per device at ~110
 * bytes a reading (see `npm run bench -- --phases history`), 0.8 GB a quarter; what a clinician
 * reviews in detail is the recent past. Rollups for two years (a minute row is ~150 bytes, an hour
 * row the same per 60 minutes): trends over seasons and treatment changes stay drawable. The audit
 * log for six years, the span HIPAA 164.316(b)(2)(i) sets for keeping security documentation.
 */
export const DEFAULT_RETENTION_DAYS = { raw: 90, rollups: 730, audit: 2190 } as const;
export const RECENT_ALERTS_COUNT = 3;
export const ALERTS_PAGE_SIZE = 10;
export const DEMO_ALERTS_CAP = 5;
export const DEMO_ALERT_INTERVAL_MS = 15_000;
export const USER_GROWTH_DAYS = 7;
export const ADMIN_TOKEN_POLL_ATTEMPTS = 3;
export const ADMIN_TOKEN_POLL_INTERVAL_MS = 100;
export const SKELETON_ROWS = 5;
export const MOBILE_BREAKPOINT_PX = 768;

/**
 * Normal ranges (inclusive bounds): the product spec's section 5 values, checked against clinical
 * sources. Heart rate 60–100 BPM is the American Heart Association's normal adult resting rate.
 * SpO2 at least 95 %: NEWS2 (Royal College of Physicians, 2017) scores 96 % and over as 0 and
 * 94–95 % as 1 on its SpO2 scale 1. Temperature 95–98.4 °F is the spec's own (NEWS2 scores
 * 36.1–38.0 °C, 97.0–100.4 °F, as 0); battery at least 20 % is the spec's. The chart's shaded
 * bands, the cards' brackets and the range rules all read these.
 */
export const NORMAL_RANGES = {
  spo2: { min: 95, max: Number.POSITIVE_INFINITY },
  heartRate: { min: 60, max: 100 },
  temperature: { min: 95, max: 98.4 },
  battery: { min: 20, max: Number.POSITIVE_INFINITY },
} as const;

/** Progress-bar scales of spec section 4: value at `min` is 0 %, at `max` 100 %. */
export const PROGRESS_SCALES = {
  spo2: { min: 90, max: 100 },
  heartRate: { min: 60, max: 100 },
  temperature: { min: 95, max: 98.4 },
  battery: { min: 0, max: 100 },
} as const;

/** Physically plausible bounds for ingestion; anything outside is rejected, not stored. */
export const PLAUSIBLE_RANGES = {
  spo2: { min: 0, max: 100 },
  heartRate: { min: 0, max: 300 },
  temperature: { min: 77, max: 113 },
  battery: { min: 0, max: 100 },
} as const;

export const ALERT_TYPES = [
  'FALL',
  'SOS',
  'BATTERY',
  'LOW_SPO2',
  'HIGH_HEART_RATE',
  'LOW_HEART_RATE',
  'HIGH_TEMPERATURE',
  'LOW_TEMPERATURE',
  'DEVICE_OFFLINE',
] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export const INGEST_BATCH_MAX = 500;
export const INGEST_FUTURE_TOLERANCE_MS = 5 * 60_000;
/** Readings stamped before this are a device clock fault, not history. */
export const INGEST_EARLIEST_RECORDED_AT = '2000-01-01T00:00:00Z';

/** `POST /health/fetch/:deviceId`: records returned without a `limit`, and the most one call returns. */
export const HEALTH_FETCH_DEFAULT_LIMIT = 100;
export const HEALTH_FETCH_MAX_LIMIT = 10_000;
/** `POST /alert/latest/:count` accepts 1 to this many. */
export const ALERTS_LATEST_MAX = 100;
/** `POST /alert/all`: page size without a `limit`, and the largest page. */
export const ALERTS_PAGE_DEFAULT_LIMIT = 50;
export const ALERTS_PAGE_MAX_LIMIT = 500;

export const ACCESS_TOKEN_TTL_S = 15 * 60;
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 3600;

/** Browser storage keys (spec section 3). */
export const STORAGE_KEYS = {
  accessToken: 'access-token',
  refreshToken: 'refresh-token',
  sentFcmToken: 'sentFCMToken',
  /** Whose account `sentFCMToken` was saved for: another user signing in on this browser saves it again. */
  sentFcmTokenUser: 'sentFCMTokenUser',
  theme: 'theme',
  /** 'on' when this browser sounds urgent alerts (Profile → Sound for urgent alerts); off by default. */
  urgentAlertSound: 'urgent-alert-sound',
  /**
   * Session storage: since when (ms) live data has stopped in this tab, so the offline page a
   * reload gets (web/public/offline.js) says since when too.
   */
  notLiveSince: 'not-live-since',
} as const;
