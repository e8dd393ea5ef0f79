/**
 * `?next=<path>` on the sign-in and sign-up pages: where to go once signed in (an invitation link
 * opened while signed out). Only a path of this app counts, never another site (`//host`, `https:`).
 */
export function returnPath(search: string): string | null {
  const next = new URLSearchParams(search).get('next');
  return next?.startsWith('/') && !next.startsWith('//') ? next : null;
}

/** The `?next=` to carry from one auth page to the other, or nothing. */
export function keepReturn(search: string): string {
  const next = returnPath(search);
  return next ? `?${new URLSearchParams({ next })}` : '';
}
