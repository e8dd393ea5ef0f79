/**
 * Temperature units. Readings are stored and checked in °F (the spec's unit, the devices' unit);
 * each user chooses how they are shown.
 */
export const TEMPERATURE_UNITS = ['F', 'C'] as const;
export type TemperatureUnit = (typeof TEMPERATURE_UNITS)[number];

export const TEMPERATURE_SYMBOLS: Record<TemperatureUnit, string> = { F: '°F', C: '°C' };

/** A stored °F value in `unit`, to one decimal: 98.6 °F is 37.0 °C. */
export const temperatureIn = (fahrenheit: number, unit: TemperatureUnit): number =>
  unit === 'F' ? fahrenheit : Math.round((((fahrenheit - 32) * 5) / 9) * 10) / 10;

export const UNIT_MESSAGES = {
  saved: 'Temperature unit saved',
} as const;
