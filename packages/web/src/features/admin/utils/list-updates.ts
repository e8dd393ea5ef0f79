interface WithId {
  _id: string;
}

/** The list with `item` in place of the entry with its id, or added at the end when new. */
export function upsertById<T extends WithId>(items: readonly T[], item: T): T[] {
  return items.some((i) => i._id === item._id)
    ? items.map((i) => (i._id === item._id ? item : i))
    : [...items, item];
}

/** The list without the entry with this id. */
export function removeById<T extends WithId>(items: readonly T[], id: string): T[] {
  return items.filter((i) => i._id !== id);
}
