/**
 * `?next=<path>` on the sign-in and sign-up pages: where to go once signed in (an invitation link
 * opened while signed out). Only a path of this app counts, never another site: the value is read
 * as a browser reads a link on this page, so `//host`, `/\host` (a browser's `//host`), or a path
 * with tabs or line breaks that hide either, all land elsewhere and are refused.
 */
export function returnPath(search: string): string | null {
  const next = new URLSearchParams(search).get('next');
  if (!next?.startsWith('/')) return null;
  const { origin } = window.location;
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return null;
  }
  return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : null;
}

/** `?next=` for a path of this app, to add to the sign-in or sign-up page's address. */
export const keepReturnTo = (next: string): string => `?${new URLSearchParams({ next })}`;

/** The `?next=` to carry from one auth page to the other, or nothing. */
export function keepReturn(search: string): string {
  const next = returnPath(search);
  return next ? keepReturnTo(next) : '';
}
