import { asView, type Parsed, refused } from './ieee11073.ts';

/** Battery Level (0x2A19): one uint8, percent (Battery Service 1.0 §3.1); above 100 is refused. */
export function parseBatteryLevel(data: DataView | Uint8Array | ArrayBuffer): Parsed<number> {
  const view = asView(data);
  if (view.byteLength !== 1) return refused('battery level is one byte');
  const level = view.getUint8(0);
  return level > 100 ? refused('battery level above 100%') : { ok: true, value: level };
}
