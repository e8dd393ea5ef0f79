/**
 * Byte builders for the Bluetooth SIG health characteristics, written from the specifications
 * (little-endian fields; IEEE-11073 SFLOAT and FLOAT), independent of the parsers under test.
 */
export const u8 = (v: number): number[] => [v & 0xff];
export const u16 = (v: number): number[] => [v & 0xff, (v >> 8) & 0xff];
export const u24 = (v: number): number[] => [v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff];

/** SFLOAT: 4-bit exponent (high nibble), 12-bit mantissa, both two's complement. */
export const sfloat = (mantissa: number, exponent: number): number[] =>
  u16(((exponent & 0xf) << 12) | (mantissa & 0xfff));

/** FLOAT: 24-bit mantissa then an 8-bit exponent, both two's complement. */
export const float32 = (mantissa: number, exponent: number): number[] => [
  ...u24(mantissa & 0xffffff),
  exponent & 0xff,
];

export const dateTime = (y: number, mo: number, d: number, h: number, mi: number, s: number): number[] => [
  ...u16(y),
  mo,
  d,
  h,
  mi,
  s,
];

export const bytes = (...parts: number[][]): Uint8Array => Uint8Array.from(parts.flat());

/** Every combination of the given flag bits. */
export const everyFlagCombination = (bits: number): number[] =>
  Array.from({ length: 2 ** bits }, (_, i) => i);
