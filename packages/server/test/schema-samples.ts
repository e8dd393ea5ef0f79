import { alarmSettings, DEFAULT_ALARM_SETTINGS, quietHoursSchema } from '@vitalwatch/shared';
import type { z } from 'zod';

type AnyZod = z.core.$ZodType;
type Def = z.core.$ZodTypeDef & Record<string, unknown>;

/** A property no schema declares: every object sample carries it, and no reply may. */
export const UNDECLARED = '__undeclared';

/** Values whose fields depend on each other (a critical level beyond its limit): the real ones. */
const KNOWN = new Map<AnyZod, unknown>([
  [alarmSettings, DEFAULT_ALARM_SETTINGS],
  [quietHoursSchema, { start: '22:00', end: '07:00', timeZone: 'Europe/Paris' }],
]);

/** Strings of each format that zod accepts, the first also for a string of no format. */
const FORMATTED: Record<string, string> = {
  email: 'ana@example.com',
  uuid: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  guid: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  url: 'https://example.com/a?b=c',
  datetime: '2026-11-27T04:05:06.789Z',
  date: '2026-11-27',
  time: '04:05:06',
  e164: '+15551234567',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  base64: 'aGVsbG8=',
  base64url: 'aGVsbG8',
  hex: 'c0ffee',
  nanoid: 'V1StGXR8_Z5jdHi6B-myT',
  cuid: 'cjld2cjxh0000qzrmn831i7rn',
  cuid2: 'tz4a98xxat96iws9zmbrgj3a',
  ulid: '01ARZ3NDEKTSV4RRFFQ69G5FAV',
  jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln',
  lowercase: 'lower',
  uppercase: 'UPPER',
};
/** A plain string that exercises JSON escaping: quotes, backslash, control and line separators, astral. */
const PLAIN = 'a"b\\c\nd\u2028é😀\u0001';

/** Candidates for a string with checks: the plain one first, then shorter and patterned ones. */
function strings(schema: AnyZod): string[] {
  const bag = schema._zod.bag as { format?: string; minLength?: number; maxLength?: number };
  if (bag.format && FORMATTED[bag.format]) return [FORMATTED[bag.format] as string];
  const min = bag.minLength ?? 0;
  const max = bag.maxLength ?? Number.POSITIVE_INFINITY;
  const candidates = [PLAIN, 'abc', 'A1', 'x'.repeat(Math.max(min, 1)), ...Object.values(FORMATTED)];
  return candidates.filter((s) => s.length >= min && s.length <= max);
}

/** A number `schema` takes: a fraction where it may, else a whole number, within its bounds. */
function numberOf(schema: AnyZod): number {
  const bag = schema._zod.bag as { minimum?: number; maximum?: number };
  const low =
    Number.isFinite(bag.minimum) && Math.abs(bag.minimum as number) < 1e9 ? (bag.minimum as number) : -1e6;
  const high =
    Number.isFinite(bag.maximum) && Math.abs(bag.maximum as number) < 1e9 ? (bag.maximum as number) : 1e6;
  const mid = low + (high - low) / 3;
  const candidates = [mid + 0.25, Math.ceil(mid), Math.ceil(low), Math.floor(high), 0, 1, 60];
  return candidates.find((n) => (schema as z.ZodType).safeParse(n).success) ?? Math.ceil(mid);
}

/**
 * A value that `schema` parses, the `variant`-th of several: variants differ in which union
 * branch, whether an optional is present, whether a nullable is null. Every object carries an
 * undeclared property. `undefined` where no value was found (a string pattern it cannot guess).
 */
export function sampleOf(schema: AnyZod, variant: number, depth = 0): unknown {
  if (KNOWN.has(schema)) return structuredClone(KNOWN.get(schema));
  const def = schema._zod.def as Def;
  const inner = (s: unknown, v = variant) => sampleOf(s as AnyZod, v, depth + 1);
  switch (def.type) {
    case 'string':
    case 'template_literal': {
      const candidates = strings(schema);
      return candidates.find((s) => (schema as z.ZodType).safeParse(s).success) ?? candidates[0];
    }
    case 'number':
      return numberOf(schema);
    case 'boolean':
      return variant % 2 === 0;
    case 'null':
      return null;
    case 'literal':
      return (def.values as unknown[])[variant % (def.values as unknown[]).length];
    case 'enum': {
      const values = Object.values(def.entries as Record<string, unknown>);
      return values[variant % values.length];
    }
    case 'any':
    case 'unknown':
      return variant % 2 === 0 ? { nested: [1, 'two', null, { deep: true }] } : 'text';
    case 'optional':
      return variant % 3 === 1 || depth > 6 ? undefined : inner(def.innerType);
    case 'default':
    case 'prefault':
      return variant % 3 === 1 ? undefined : inner(def.innerType);
    case 'nullable':
      return variant % 3 === 2 || depth > 6 ? null : inner(def.innerType);
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return inner(def.innerType);
    case 'lazy':
      return inner((def.getter as () => AnyZod)());
    case 'pipe':
      return inner(def.in);
    case 'array': {
      const min = (schema._zod.bag as { minimum?: number }).minimum ?? 0;
      const count = depth > 6 ? min : Math.max(min, 2);
      return Array.from({ length: count }, (_, i) => inner(def.element, variant + i));
    }
    case 'tuple':
      return (def.items as AnyZod[]).map((item) => inner(item));
    case 'record': {
      const key = sampleOf(def.keyType as AnyZod, variant, depth + 1);
      return { [String(key)]: inner(def.valueType), ...(typeof key === 'string' ? {} : { k2: 1 }) };
    }
    case 'union': {
      const options = def.options as AnyZod[];
      return inner(options[variant % options.length]);
    }
    case 'intersection': {
      const left = inner(def.left);
      const right = inner(def.right);
      return typeof left === 'object' && typeof right === 'object' ? { ...left, ...right } : left;
    }
    case 'object': {
      const shape = def.shape as Record<string, AnyZod>;
      // A strict object refuses what it does not declare.
      const strict = (def.catchall as AnyZod | undefined)?._zod.def.type === 'never';
      const value: Record<string, unknown> = strict ? {} : { [UNDECLARED]: 'must not leave' };
      for (const [key, field] of Object.entries(shape)) {
        const v = inner(field, variant + key.length);
        if (v !== undefined) value[key] = v;
      }
      return value;
    }
    default:
      return undefined;
  }
}
