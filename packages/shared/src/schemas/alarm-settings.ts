import { z } from 'zod';
import {
  ALARM_BOUNDS,
  type AlarmSettings,
  DEFAULT_ALARM_SETTINGS,
  ESCALATION_BOUNDS,
  VITAL_ALARM_TYPES,
  VITAL_ALARMS,
  type VitalAlarmType,
} from '../rules/alarms.ts';
import { envelope } from './common.ts';

export const ALARM_MESSAGES = {
  fetched: 'Alarm settings fetched successfully',
  updated: 'Alarm settings updated successfully',
  criticalBeyondLimit: 'The critical level must be beyond the alarm limit',
  heartRateLimits: 'The low heart-rate limit plus its clearing margin must stay below the high limit',
  temperatureLimits: 'The low temperature limit plus its clearing margin must stay below the high limit',
  clearUnreachable: 'With this margin the alarm could never clear',
  backupWithinRepeats: 'Backup contacts must be reached while the alert is still being repeated',
} as const;

const bounded = (label: string, b: { min: number; max: number }) =>
  z
    .number({ error: `${label} must be a number` })
    .finite(`${label} must be a number`)
    .min(b.min, `${label} must be at least ${b.min}`)
    .max(b.max, `${label} must be at most ${b.max}`);

const condition = (type: VitalAlarmType) => {
  const b = ALARM_BOUNDS[type];
  return (
    z
      .object({
        limit: bounded('Alarm limit', b.limit),
        critical: b.critical ? bounded('Critical level', b.critical) : z.null(),
        delaySeconds: bounded('Delay', b.delaySeconds).int('Delay must be whole seconds'),
        clearMargin: bounded('Clearing margin', b.clearMargin),
        clearSeconds: bounded('Clearing time', b.clearSeconds).int('Clearing time must be whole seconds'),
      })
      .strict()
      .refine(
        (c) =>
          c.critical === null ||
          (VITAL_ALARMS[type].direction === 'low' ? c.critical < c.limit : c.critical > c.limit),
        { path: ['critical'], message: ALARM_MESSAGES.criticalBeyondLimit },
      )
      // A percentage cannot clear above 100 %: such an episode would stay open for ever, silently.
      .refine((c) => VITAL_ALARMS[type].unit !== '%' || c.limit + c.clearMargin <= 100, {
        path: ['clearMargin'],
        message: ALARM_MESSAGES.clearUnreachable,
      })
  );
};

const conditions = z
  .object(
    Object.fromEntries(VITAL_ALARM_TYPES.map((t) => [t, condition(t)])) as {
      [K in VitalAlarmType]: ReturnType<typeof condition>;
    },
  )
  .strict()
  // Each side must be able to clear while the other is not out of range.
  .refine(
    (c) =>
      c.LOW_HEART_RATE.limit + c.LOW_HEART_RATE.clearMargin < c.HIGH_HEART_RATE.limit &&
      c.HIGH_HEART_RATE.limit - c.HIGH_HEART_RATE.clearMargin > c.LOW_HEART_RATE.limit,
    { path: ['HIGH_HEART_RATE', 'limit'], message: ALARM_MESSAGES.heartRateLimits },
  )
  .refine(
    (c) =>
      c.LOW_TEMPERATURE.limit + c.LOW_TEMPERATURE.clearMargin < c.HIGH_TEMPERATURE.limit &&
      c.HIGH_TEMPERATURE.limit - c.HIGH_TEMPERATURE.clearMargin > c.LOW_TEMPERATURE.limit,
    { path: ['HIGH_TEMPERATURE', 'limit'], message: ALARM_MESSAGES.temperatureLimits },
  );

const escalation = z
  .object({
    repeatEveryMinutes: bounded('Repeat interval', ESCALATION_BOUNDS.repeatEveryMinutes).int(
      'Repeat interval must be whole minutes',
    ),
    repeatForMinutes: bounded('Repeat for', ESCALATION_BOUNDS.repeatForMinutes).int(
      'Repeat for must be whole minutes',
    ),
    backupAfterMinutes: bounded('Backup after', ESCALATION_BOUNDS.backupAfterMinutes).int(
      'Backup after must be whole minutes',
    ),
    fallbackAfterSeconds: bounded('Next channel after', ESCALATION_BOUNDS.fallbackAfterSeconds).int(
      'Next channel after must be whole seconds',
    ),
  })
  .strict()
  .refine((e) => e.backupAfterMinutes <= e.repeatForMinutes, {
    path: ['backupAfterMinutes'],
    message: ALARM_MESSAGES.backupWithinRepeats,
  });

/** A device's complete alarm settings, every value within its safe bounds. */
export const alarmSettings = z.object({ conditions, escalation }).strict() satisfies z.ZodType<AlarmSettings>;

/** The stored shape, checked loosely (made once: the ingest path reads it for every batch). */
const storedOverrides = z.object({
  conditions: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  escalation: z.record(z.string(), z.unknown()).optional(),
});

/**
 * What a device stores: only what differs from the defaults, so devices nobody tuned follow the
 * documented defaults as they evolve. Read back leniently: a stored value that today's bounds
 * refuse falls back to the default rather than breaking the device's ingestion.
 */
export function effectiveAlarmSettings(stored: unknown): AlarmSettings {
  const overrides = storedOverrides.safeParse(stored);
  if (!overrides.success) return DEFAULT_ALARM_SETTINGS;
  const { conditions = {}, escalation = {} } = overrides.data;
  // Most devices keep the defaults: no need to validate them again on every reading.
  if (Object.keys(conditions).length === 0 && Object.keys(escalation).length === 0)
    return DEFAULT_ALARM_SETTINGS;
  const merged = {
    conditions: Object.fromEntries(
      VITAL_ALARM_TYPES.map((t) => [t, { ...DEFAULT_ALARM_SETTINGS.conditions[t], ...conditions[t] }]),
    ),
    escalation: { ...DEFAULT_ALARM_SETTINGS.escalation, ...escalation },
  };
  const parsed = alarmSettings.safeParse(merged);
  return parsed.success ? parsed.data : DEFAULT_ALARM_SETTINGS;
}

/** The part of `settings` that differs from the defaults (what a device stores). */
export function alarmOverrides(settings: AlarmSettings) {
  const conditionsDiff: Record<string, Record<string, number | null>> = {};
  for (const t of VITAL_ALARM_TYPES) {
    const diff = Object.fromEntries(
      Object.entries(settings.conditions[t]).filter(
        ([k, v]) => DEFAULT_ALARM_SETTINGS.conditions[t][k as keyof typeof settings.conditions.BATTERY] !== v,
      ),
    );
    if (Object.keys(diff).length > 0) conditionsDiff[t] = diff;
  }
  const escalationDiff = Object.fromEntries(
    Object.entries(settings.escalation).filter(
      ([k, v]) => DEFAULT_ALARM_SETTINGS.escalation[k as keyof typeof settings.escalation] !== v,
    ),
  );
  return { conditions: conditionsDiff, escalation: escalationDiff };
}

/** `POST /device/alarm-settings` and `/device/update-alarm-settings`. */
export const alarmSettingsParams = z.object({ deviceId: z.string().min(1).max(64) });
export const updateAlarmSettingsBody = z.object({ settings: alarmSettings }).strict();
/** `canChange`: whether the caller may change them (the device's owner, or an admin). */
export const alarmSettingsResponse = envelope(
  z.object({ settings: alarmSettings, defaults: alarmSettings, canChange: z.boolean() }),
);
