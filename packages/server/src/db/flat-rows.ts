import { Column, getTableName, is, SQL, Subquery } from 'drizzle-orm';

/** What drizzle's prepared select holds (its driver sessions' `PreparedQuery`, not in its types). */
interface PreparedInternals {
  fields?: { path: string[]; field: unknown }[];
  /** By table name, false for a table an outer join may leave null: its object becomes null then. */
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: (rows: unknown[][]) => unknown;
}

interface Decoder {
  mapFromDriverValue: (value: unknown) => unknown;
}

/** An SQL field's decoder (`.mapWith`), internal to drizzle's types. */
const decoderOfSql = (sqlField: SQL) => (sqlField as unknown as { decoder: Decoder }).decoder;

/** The decoder of a selected field's driver value, as drizzle's own `mapResultRow` finds it. */
function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field;
  if (is(field, SQL)) return decoderOfSql(field);
  if (is(field, Subquery)) return decoderOfSql(field._.sql);
  if (is(field, SQL.Aliased)) return decoderOfSql(field.sql);
  throw new Error('flatRows: a selected field drizzle does not decode');
}

/**
 * `prepared` (a drizzle select's `.prepare(name)`) with its rows mapped by decoders worked out once,
 * not for every field of every row. Drizzle's own mapping asks of each field of each row what kind
 * it is (`is`, a walk up its class chain, two or three times a field): with the rest of its
 * mapping, 16 % of the server's thread on a page of 20 alerts. For flat columns, and a table's
 * columns as one object (`{ user: users }`) of a table never null: a left-joined table's object,
 * which drizzle turns to null when all of it is null, is refused. The rows are the same objects,
 * key for key.
 */
export function flatRows<P extends object>(prepared: P): P {
  const internals = prepared as PreparedInternals;
  const fields = internals.fields;
  // Set by drizzle's constructor (0.45): were it renamed, drizzle's own mapping would go on unseen.
  if (!('customResultMapper' in internals) || !Array.isArray(fields))
    throw new Error('flatRows: not a drizzle prepared select of this version');
  const neverNull = (f: { path: string[]; field: unknown }) =>
    f.path.length === 2 &&
    is(f.field, Column) &&
    internals.joinsNotNullableMap?.[getTableName(f.field.table)] === true;
  if (fields.some((f) => f.path.length !== 1 && !neverNull(f)))
    throw new Error('flatRows: flat columns, and tables never null, only');
  const paths = fields.map((f) => f.path as [string] | [string, string]);
  const decoders = fields.map((f) => decoderOf(f.field));
  internals.customResultMapper = (rows) =>
    rows.map((row) => {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < paths.length; i++) {
        const raw = row[i];
        const value = raw === null ? null : decoders[i]!.mapFromDriverValue(raw);
        const [key, inner] = paths[i]!;
        if (inner === undefined) {
          out[key] = value;
        } else {
          out[key] ??= {};
          (out[key] as Record<string, unknown>)[inner] = value;
        }
      }
      return out;
    });
  return prepared;
}
