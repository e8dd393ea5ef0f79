import { useEffect } from 'react';

/** The favicon with a red badge, shown while something needs attention. */
export const BADGED_FAVICON = '/favicon-alert.svg';

/**
 * While `label` is set ("(1) FALL"), the tab says so whatever page is open: its title reads
 * "(1) FALL — Profile Settings · VitalWatch" and the favicon carries a red badge; both come back
 * when `label` is null. Pages set their own `<title>` (React places it first in the head): a
 * page's new title is prefixed as it appears.
 */
export function useDocumentAttention(label: string | null): void {
  useEffect(() => {
    if (!label) return;
    const prefix = `${label} — `;
    const originals = new WeakMap<Element, string>();
    const prefixTitle = () => {
      const title = document.querySelector('title');
      const text = title?.textContent ?? '';
      if (!title || text.startsWith(prefix)) return;
      originals.set(title, text);
      title.textContent = prefix + text;
    };
    prefixTitle();
    const observer = new MutationObserver(prefixTitle);
    observer.observe(document.head, { childList: true, subtree: true, characterData: true });

    const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    const plainIcon = icon?.getAttribute('href') ?? null;
    icon?.setAttribute('href', BADGED_FAVICON);
    return () => {
      observer.disconnect();
      const title = document.querySelector('title');
      const original = title ? originals.get(title) : undefined;
      if (title && original !== undefined && title.textContent === prefix + original) {
        title.textContent = original;
      }
      if (icon && plainIcon) icon.setAttribute('href', plainIcon);
    };
  }, [label]);
}
