import { randomBytes, randomInt } from 'node:crypto';

/** No 0/O, 1/I/L: nothing a person could misread or mishear when typing it from a label. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const GROUP = 4;

/** A fresh activation code such as `7KQ4-M2XD` (31^8 ≈ 8.5e11 codes; uniqueness is the index's job). */
export function newActivationCode(): string {
  let code = '';
  for (let i = 0; i < GROUP * 2; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, GROUP)}-${code.slice(GROUP)}`;
}

/**
 * The stored form of what a person typed: upper-cased, spaces and dashes ignored, regrouped.
 * Anything that cannot be a code comes back unchanged, so it simply matches nothing.
 */
export function normalizeActivationCode(input: string): string {
  const compact = input.toUpperCase().replace(/[\s-]/g, '');
  if (compact.length !== GROUP * 2) return input;
  return `${compact.slice(0, GROUP)}-${compact.slice(GROUP)}`;
}

/** A device's API secret: 32 random bytes, base64url (43 characters). */
export const newApiAuthCode = (): string => randomBytes(32).toString('base64url');
