import { useSyncExternalStore } from 'react';

/**
 * How many alerts the signed-in user has not read, for the header's Alerts link. The user area
 * keeps it current (it owns the socket and the store's alert queries); the header, on every page,
 * only reads it, so the first page a visitor opens loads none of that code. Null: not known.
 */
let count: number | null = null;
const listeners = new Set<() => void>();

export function setUnreadBadge(next: number | null): void {
  if (next === count) return;
  count = next;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};
const read = () => count;

export function useUnreadBadge(): number | null {
  return useSyncExternalStore(subscribe, read, read);
}
