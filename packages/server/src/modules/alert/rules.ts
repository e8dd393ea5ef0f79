import {
  type AlertPriority,
  VITAL_ALARMS,
  type VitalAlarmType,
  type VitalCondition,
} from '@vitalwatch/shared';

/** At most one decimal, no trailing zeros: 91, 101.3. */
export const formatValue = (value: number): string => String(Math.round(value * 10) / 10);

export interface AlertText {
  alertTitle: string;
  alertMessage: string;
  details: Record<string, unknown>;
}

const unitSuffix = (unit: string) => (unit === '%' ? unit : ` ${unit}`);

/** "Low blood oxygen: 91% on Dad's watch"; a critical one says so: "Critical low blood oxygen: 88% …". */
export function vitalAlertText(
  type: VitalAlarmType,
  condition: VitalCondition,
  value: number,
  priority: AlertPriority,
  deviceName: string,
): AlertText {
  const { vital, unit, title } = VITAL_ALARMS[type];
  const critical = priority === 'high';
  const alertTitle = critical ? `Critical ${title.charAt(0).toLowerCase()}${title.slice(1)}` : title;
  return {
    alertTitle,
    alertMessage: `${alertTitle}: ${formatValue(value)}${unitSuffix(unit)} on ${deviceName}`,
    details: {
      vital,
      value,
      threshold: critical && condition.critical !== null ? condition.critical : condition.limit,
      unit,
      ...(critical ? { critical: true } : {}),
    },
  };
}

const DEVICE_EVENT_TITLES: Record<string, string> = {
  FALL: 'Fall detected',
  SOS: 'SOS pressed',
  BATTERY: 'Low battery',
};

/** "Fall detected on Dad's watch"; the device's own title and message win when it sends them. */
export function deviceEventText(
  alertType: string,
  deviceName: string,
  sent: { alertTitle?: string; alertMessage?: string },
): AlertText {
  const fallback =
    DEVICE_EVENT_TITLES[alertType] ??
    alertType.charAt(0) + alertType.slice(1).toLowerCase().replaceAll('_', ' ');
  const alertTitle = sent.alertTitle ?? fallback;
  return {
    alertTitle,
    alertMessage: sent.alertMessage ?? `${alertTitle} on ${deviceName}`,
    details: { source: 'device' },
  };
}

/** "Device offline: no data from Dad's watch for 15 minutes". */
export const offlineAlertText = (deviceName: string, lastUpdate: Date, now: Date): AlertText => {
  const minutes = Math.floor((now.getTime() - lastUpdate.getTime()) / 60_000);
  return {
    alertTitle: 'Device offline',
    alertMessage: `Device offline: no data from ${deviceName} for ${minutes} minutes`,
    details: { lastUpdate: lastUpdate.toISOString(), minutesSilent: minutes },
  };
};
