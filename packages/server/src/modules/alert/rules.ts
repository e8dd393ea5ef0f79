import { type AlertType, NORMAL_RANGES } from '@vitalwatch/shared';

/** The vitals of one reading; null when the device did not measure it. */
export interface Vitals {
  spo2: number | null;
  heartRate: number | null;
  temperature: number | null;
  battery: number | null;
}

export interface VitalRule {
  type: AlertType;
  vital: keyof Vitals;
  /** The normal-range bound the value crossed. */
  threshold: number;
  isAbnormal(value: number): boolean;
  title: string;
  unit: string;
}

const { spo2, heartRate, temperature, battery } = NORMAL_RANGES;

/** One rule per alert type, from the spec's normal ranges (bounds inclusive: 95 % SpO2 is normal). */
export const VITAL_RULES: readonly VitalRule[] = [
  {
    type: 'LOW_SPO2',
    vital: 'spo2',
    threshold: spo2.min,
    isAbnormal: (v) => v < spo2.min,
    title: 'Low blood oxygen',
    unit: '%',
  },
  {
    type: 'LOW_HEART_RATE',
    vital: 'heartRate',
    threshold: heartRate.min,
    isAbnormal: (v) => v < heartRate.min,
    title: 'Low heart rate',
    unit: ' BPM',
  },
  {
    type: 'HIGH_HEART_RATE',
    vital: 'heartRate',
    threshold: heartRate.max,
    isAbnormal: (v) => v > heartRate.max,
    title: 'High heart rate',
    unit: ' BPM',
  },
  {
    type: 'LOW_TEMPERATURE',
    vital: 'temperature',
    threshold: temperature.min,
    isAbnormal: (v) => v < temperature.min,
    title: 'Low body temperature',
    unit: ' °F',
  },
  {
    type: 'HIGH_TEMPERATURE',
    vital: 'temperature',
    threshold: temperature.max,
    isAbnormal: (v) => v > temperature.max,
    title: 'High body temperature',
    unit: ' °F',
  },
  {
    type: 'BATTERY',
    vital: 'battery',
    threshold: battery.min,
    isAbnormal: (v) => v < battery.min,
    title: 'Low battery',
    unit: '%',
  },
];

/** At most one decimal, no trailing zeros: 91, 101.3. */
export const formatValue = (value: number): string => String(Math.round(value * 10) / 10);

export interface AlertText {
  alertTitle: string;
  alertMessage: string;
  details: Record<string, unknown>;
}

/** "Low blood oxygen: 91% on Dad's watch". */
export const vitalAlertText = (rule: VitalRule, value: number, deviceName: string): AlertText => ({
  alertTitle: rule.title,
  alertMessage: `${rule.title}: ${formatValue(value)}${rule.unit} on ${deviceName}`,
  details: { vital: rule.vital, value, threshold: rule.threshold, unit: rule.unit.trim() },
});

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
