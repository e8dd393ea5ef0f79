import fastJsonStringify from 'fast-json-stringify';
import type { FastifyBaseLogger, FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** A reply body as JSON text. */
export type Stringify = (data: unknown) => string;

/** Why a response schema is serialised by zod per reply rather than compiled. */
export type Compiled = { stringify: Stringify } | { reason: string };

type ZodDef = z.core.$ZodTypeDef & Record<string, unknown>;
type AnyZod = z.core.$ZodType;

/** Types JSON Schema cannot describe as zod outputs them (a Date, a Map…) or whose output is another value. */
const UNFAITHFUL_TYPES = new Set([
  'transform',
  'success',
  'prefault',
  'date',
  'bigint',
  'symbol',
  'undefined',
  'void',
  'map',
  'set',
  'promise',
  'function',
  'custom',
  'nan',
  'file',
]);

/**
 * The first part of `schema` whose output JSON Schema cannot reproduce: a transform (also inside a
 * preprocess or a pipe), a check that rewrites the value (`.trim()`, `.toLowerCase()`), a type with
 * no JSON form; undefined when every part is plain data.
 */
export function unfaithfulPart(schema: AnyZod, seen = new Set<AnyZod>()): string | undefined {
  if (seen.has(schema)) return undefined;
  seen.add(schema);
  const def = schema._zod.def as ZodDef;
  if (UNFAITHFUL_TYPES.has(def.type)) return def.type;
  for (const check of (def.checks ?? []) as z.core.$ZodCheck[]) {
    if (check._zod.def.check === 'overwrite') return `${def.type} with a rewriting check`;
  }
  const inner = (s: unknown) => (s ? unfaithfulPart(s as AnyZod, seen) : undefined);
  const each = (list: unknown) => {
    for (const s of (list ?? []) as AnyZod[]) {
      const found = unfaithfulPart(s, seen);
      if (found) return found;
    }
    return undefined;
  };
  switch (def.type) {
    case 'object':
      return each(Object.values(def.shape as Record<string, AnyZod>)) ?? inner(def.catchall);
    case 'array':
      return inner(def.element);
    case 'record':
      return inner(def.keyType) ?? inner(def.valueType);
    case 'tuple':
      return each(def.items) ?? inner(def.rest);
    case 'union':
      return each(def.options);
    case 'intersection':
      return inner(def.left) ?? inner(def.right);
    case 'pipe':
      return inner(def.in) ?? inner(def.out);
    case 'lazy':
      return inner((def.getter as () => AnyZod)());
    case 'optional':
    case 'nullable':
    case 'nonoptional':
    case 'readonly':
    case 'default':
    case 'catch':
      return inner(def.innerType);
    default:
      return undefined;
  }
}

type Json = Record<string, unknown>;

/** Keywords that only validate: the serialiser needs none of them (and its union checks get cheaper). */
const VALIDATION_ONLY = new Set([
  '$schema',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'propertyNames',
  'contentEncoding',
  'contentMediaType',
  'description',
  'title',
  'examples',
]);

/** Keywords whose value is a map of names to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords whose value is data, not a schema. */
const VALUES = new Set(['const', 'enum', 'default', 'required']);

/**
 * A JSON Schema as fast-json-stringify writes it like zod's output: `additionalProperties: false`
 * dropped (it writes only declared properties without it too, and a union's branch then matches a
 * value carrying more, as zod's stripping parse does), validation-only keywords dropped, a property
 * that may be anything not required (zod leaves it out when undefined), `X | null` as one type list.
 */
function forSerialiser(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forSerialiser);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    if (VALIDATION_ONLY.has(key)) continue;
    if (key === 'additionalProperties' && value === false) continue;
    if (SCHEMA_MAPS.has(key)) {
      // Names (a property may well be called `format`), each naming a schema.
      const map = value as Record<string, unknown>;
      out[key] = Object.fromEntries(Object.entries(map).map(([name, s]) => [name, forSerialiser(s)]));
    } else out[key] = VALUES.has(key) ? value : forSerialiser(value);
  }
  if (Array.isArray(out.prefixItems)) {
    // A tuple as draft-07 writes it, the form fast-json-stringify compiles: given `prefixItems`
    // it wrote each item with JSON.stringify (a 480-bucket history: 1.2 ms, now 0.7 ms).
    out.additionalItems = out.items ?? true;
    out.items = out.prefixItems;
    delete out.prefixItems;
  }
  if (out.properties && Array.isArray(out.required)) {
    const properties = out.properties as Record<string, Json>;
    out.required = out.required.filter((k: string) => Object.keys(properties[k] ?? {}).length > 0);
  }
  const anyOf = out.anyOf as Json[] | undefined;
  if (anyOf?.length === 2 && Object.keys(out).length === 1) {
    const other = anyOf.find((s) => !(s.type === 'null' && Object.keys(s).length === 1));
    const isNull = anyOf.some((s) => s.type === 'null' && Object.keys(s).length === 1);
    if (isNull && other && typeof other.type === 'string' && !('const' in other) && !('anyOf' in other))
      return { ...other, type: [other.type, 'null'] };
  }
  return out;
}

/**
 * `schema`'s output compiled to a stringifier by fast-json-stringify (from zod's JSON Schema of its
 * output), or why not. Like zod's parse it writes only the properties the schema declares: a
 * field a handler did not mean to send (a password hash on a row) never leaves.
 */
export function compileResponse(schema: AnyZod): Compiled {
  const part = unfaithfulPart(schema);
  if (part) return { reason: `its output has a ${part}` };
  let json: unknown;
  try {
    json = z.toJSONSchema(schema, {
      io: 'output',
      unrepresentable: 'throw',
      cycles: 'ref',
      reused: 'inline',
    });
  } catch (err) {
    return { reason: `no JSON Schema: ${(err as Error).message}` };
  }
  try {
    return { stringify: fastJsonStringify(forSerialiser(json) as Parameters<typeof fastJsonStringify>[0]) };
  } catch (err) {
    return { reason: `fast-json-stringify refused it: ${(err as Error).message}` };
  }
}

const isZod = (schema: unknown): schema is AnyZod =>
  typeof schema === 'object' && schema !== null && '_zod' in schema;

/**
 * The server's serializer compiler: each route's zod response schema compiled once (on the route's
 * first reply, so start-up does not pay for routes nobody calls); a schema that cannot be compiled
 * faithfully is serialised by zod per reply as before, said at debug level.
 */
export function compiledSerializerCompiler(log: FastifyBaseLogger): FastifySerializerCompiler<unknown> {
  const bySchema = new WeakMap<object, Compiled>();
  return (route) => {
    const zodSerialise = () => zodSerializerCompiler(route as Parameters<typeof zodSerializerCompiler>[0]);
    const { schema } = route;
    if (!isZod(schema)) return zodSerialise();
    let compiled = bySchema.get(schema);
    if (!compiled) {
      const part = unfaithfulPart(schema);
      compiled = part ? { reason: `its output has a ${part}` } : undefined;
      if (compiled) bySchema.set(schema, compiled);
    }
    if (compiled && 'reason' in compiled) {
      log.debug(
        { route: `${route.method} ${route.url}`, reason: compiled.reason },
        'reply serialised by zod',
      );
      return zodSerialise();
    }
    let stringify: Stringify | undefined;
    let fallback: Stringify | undefined;
    return (data: unknown) => {
      if (stringify) return stringify(data);
      if (fallback) return fallback(data);
      const made = bySchema.get(schema) ?? compileResponse(schema);
      bySchema.set(schema, made);
      if ('stringify' in made) {
        stringify = made.stringify;
        return stringify(data);
      }
      log.debug({ route: `${route.method} ${route.url}`, reason: made.reason }, 'reply serialised by zod');
      fallback = zodSerialise() as Stringify;
      return fallback(data);
    };
  };
}
