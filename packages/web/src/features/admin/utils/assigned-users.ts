/** Usernames shown before the rest is cut to '...' (spec: at most two). */
export const NAMES_SHOWN = 2;

/** The closed assign-users selector's label: at most two usernames, then '...' when there are more. */
export function assignedUsersLabel(usernames: readonly string[], empty = 'Select users'): string {
  if (usernames.length === 0) return empty;
  const shown = usernames.slice(0, NAMES_SHOWN).join(', ');
  return usernames.length > NAMES_SHOWN ? `${shown}...` : shown;
}

/** Usernames of a device's users, in its order; ids without a known user are left out. */
export function usernamesOf(ids: readonly string[], names: ReadonlyMap<string, string>): string[] {
  return ids.flatMap((id) => {
    const name = names.get(id);
    return name === undefined ? [] : [name];
  });
}
