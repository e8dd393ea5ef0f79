export * from './battery.ts';
export * from './heart-rate.ts';
export * from './ieee11073.ts';
export * from './profiles.ts';
export * from './pulse-oximeter.ts';
export * from './thermometer.ts';
