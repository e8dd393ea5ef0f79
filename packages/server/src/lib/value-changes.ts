type Value = string | number | boolean | null;
interface Tree {
  [key: string]: Value | Tree | undefined;
}

/** Leaves of a tree by dotted path: `{ a: { b: 1 } }` → `a.b` = 1. */
function leaves(tree: Tree, prefix = '', into = new Map<string, Value>()): Map<string, Value> {
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object') leaves(value, path, into);
    else if (value !== undefined) into.set(path, value);
  }
  return into;
}

/**
 * Each value that differs between two versions of a settings tree, by dotted path, as
 * `old → new` (`LOW_SPO2.limit`: `90 → 88`): a flat record an audit entry can hold.
 */
export function valueChanges(before: object, after: object): Record<string, string> {
  const old = leaves(before as Tree);
  const now = leaves(after as Tree);
  const changes: Record<string, string> = {};
  for (const path of new Set([...old.keys(), ...now.keys()])) {
    const from = old.get(path) ?? null;
    const to = now.get(path) ?? null;
    if (from !== to) changes[path] = `${String(from)} → ${String(to)}`;
  }
  return changes;
}
